"""What the heuristic players share: what a player can work out from the public table (sense),
considered answers to the decision points (playbook), the fighting rule and keeper's score for
confronting a card (reasoning), and where helpers are inlined (inlining)."""
