"""What the heuristic players share: what a player can work out from the public table (sense),
considered answers to the decision points (playbook), and where helpers are inlined (inlining)."""
