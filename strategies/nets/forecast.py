"""What the end of the round will cost as the boards stand (section 9), and the room left: a block
of features both values read (strategies.nets.table_value for judge, strategies.nets.afterstate for
selfplay). Each board adds its part (board_part); forecast() sums the parts into the block."""

from numba import njit

# what one seat adds to the forecast: the defence symbols it misses (bits), whether it is still in,
# the room below its Kiai value, whether it is near death, and its wounds
F_MISS, F_IN, F_ROOM, F_NEAR, F_WOUND = 0, 1, 2, 3, 4
N_F = 5
N_FORECAST = 10  # the block's features: no_hat .. worst_wound


@njit(cache=True, inline="always")
def board_part(miss, passed, gap, wound, part):
    """Seat's part: `miss` the symbols it holds no defence of (bit d for symbol d + 1), `passed`
    0 or 1, `gap` its Kiai value less its total, `wound` its wound step."""
    part[F_MISS] = miss
    part[F_IN] = 1 - passed
    part[F_ROOM] = gap if not passed and gap > 0 else 0
    part[F_NEAR] = wound >= 3
    part[F_WOUND] = wound


@njit(cache=True)
def forecast(parts, n, farmsteads, families, raider_n, x, o):
    """x[o:o + N_FORECAST] from the parts of the n seats: the seats missing each symbol, the
    farmsteads and families left once those are paid, the seats still in, their room, the raider
    cards each of them will meet, the seats near death and the worst wound."""
    no_hat = 0
    no_farm = 0
    no_doll = 0
    still_in = 0
    room = 0
    near = 0
    worst = 0
    for s in range(n):
        miss = parts[s, F_MISS]
        no_hat += miss & 1
        no_farm += (miss >> 1) & 1
        no_doll += (miss >> 2) & 1
        still_in += parts[s, F_IN]
        room += parts[s, F_ROOM]
        near += parts[s, F_NEAR]
        worst = max(worst, parts[s, F_WOUND])
    x[o] = no_hat
    x[o + 1] = no_farm
    x[o + 2] = no_doll
    x[o + 3] = farmsteads - no_farm
    x[o + 4] = families - no_doll
    x[o + 5] = still_in
    x[o + 6] = room
    x[o + 7] = raider_n / still_in if still_in > 0 else 0.0
    x[o + 8] = near
    x[o + 9] = worst
