"""Where the heuristics' helpers (strategies.helpers.sense, playbook, keeper, risk) are inlined.

numba's inline option copies a helper into its caller at numba's own IR level. For keeper that
is worth about a quarter of its speed, and it is most of its compile time: a helper is typed
again at every place it is copied to, and the sense helpers nest three deep. So the helpers
declare `inline=hot`, a numba inline cost model: they are copied into every caller except those
marked @cold, the callers that gain nothing from it. These are the rare questions' answers (the
Kiai effects' targets, a boss's lost defence, the absent tokens, Katsushiro's redraw) and
learned's feature fill, where the copies cost seconds of compiling and the calls almost
nothing at play.
"""


def cold(func):
    """Marks `func` as a caller that the hot helpers are not copied into. Put it under @njit."""
    func.inline_cold = True
    return func


def hot(expr, caller_ir, callee_ir) -> bool:
    """numba's inline cost model: copy the callee into the function being compiled unless that
    function is marked @cold (a helper copied into a caller brings its own calls along, judged the same)."""
    return not getattr(caller_ir.func_id.func, "inline_cold", False)
