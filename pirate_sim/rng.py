"""The only random-number code of pirate-sim: one independent stream per game.

Every game owns a small ``uint64`` state array derived from ``(seed, game_index)``
alone, so a game's dice never depend on thread count, chunk size or the machine.
The generator is xoshiro256** (Blackman & Vigna), seeded through splitmix64.
numba's global ``np.random`` is never used: it is not reproducible under ``prange``.

State layout (``RNG_WORDS + len(script)`` uint64 words)::

    [0:4]  xoshiro256** state
    [4]    dice rolled so far (counts ``roll_die_nb`` calls, scripted or not)
    [5]    script length        (0: no script, pure pseudo-random dice)
    [6]    script position      (next scripted die to hand out)
    [7:]   scripted die faces   (tests: "the kernel will roll exactly these")

Scripted dice replace *die rolls only* (``roll_die_nb``); shuffles and the random
baseline player draw from the pseudo-random part, so a test can script the dice of a
fight without also scripting a deck shuffle.  Once the script is used up the dice fall
back to the pseudo-random stream; tests assert ``script_remaining(rng) == 0``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RNG_WORDS = 7  # header words before the dice script (see layout above)
_IDX_DICE = 4
_IDX_SCRIPT_LEN = 5
_IDX_SCRIPT_POS = 6

# splitmix64 constants (Steele, Lea & Flood 2014); the increment is 2**64 / golden ratio.
_SM_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_SM_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_SM_MUL2 = np.uint64(0x94D049BB133111EB)
# A second odd constant mixes the game index in so (seed, i) and (seed + 1, i - 1) differ.
_GAME_MIX = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def _rotl_nb(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def _splitmix64_nb(x):
    """One splitmix64 step: returns (new_state, output)."""
    x = x + _SM_GAMMA
    z = x
    z = (z ^ (z >> np.uint64(30))) * _SM_MUL1
    z = (z ^ (z >> np.uint64(27))) * _SM_MUL2
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def seed_game_nb(rng, seed, game_index):
    """Fill ``rng`` (length >= RNG_WORDS) with the stream of game ``game_index``."""
    x, a = _splitmix64_nb(np.uint64(seed))
    x, b = _splitmix64_nb(x ^ (np.uint64(game_index) * _GAME_MIX))
    for i in range(4):
        x, out = _splitmix64_nb(x ^ a ^ b)
        rng[i] = out
    if rng[0] == 0 and rng[1] == 0 and rng[2] == 0 and rng[3] == 0:
        rng[0] = np.uint64(1)  # xoshiro's one forbidden state; probability 2**-256
    rng[_IDX_DICE] = 0
    rng[_IDX_SCRIPT_LEN] = 0
    rng[_IDX_SCRIPT_POS] = 0


@njit(cache=True, inline="always")
def next_u64_nb(rng):
    """xoshiro256**: the next raw 64-bit output."""
    s0 = rng[0]
    s1 = rng[1]
    s2 = rng[2]
    s3 = rng[3]
    result = _rotl_nb(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl_nb(s3, 45)
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return result


@njit(cache=True, inline="always")
def rand_below_nb(rng, n):
    """Uniform integer in ``0 .. n-1`` (Lemire's multiply-shift; bias below 2**-32 for n <= 64)."""
    return np.int64((next_u64_nb(rng) >> np.uint64(32)) * np.uint64(n) >> np.uint64(32))


@njit(cache=True, inline="always")
def rand_float_nb(rng):
    """Uniform float in [0, 1) with 53 random bits."""
    return (next_u64_nb(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def roll_die_nb(rng, sides):
    """Roll one die with ``sides`` faces: the scripted face if a script is loaded."""
    rng[_IDX_DICE] += np.uint64(1)
    pos = rng[_IDX_SCRIPT_POS]
    if pos < rng[_IDX_SCRIPT_LEN]:
        rng[_IDX_SCRIPT_POS] = pos + np.uint64(1)
        return np.int64(rng[np.int64(RNG_WORDS) + np.int64(pos)])
    return rand_below_nb(rng, sides) + 1


@njit(cache=True)
def weighted_choice_nb(rng, cumulative):
    """Index drawn with probabilities given by a cumulative weight array (last = total)."""
    u = rand_float_nb(rng) * cumulative[cumulative.shape[0] - 1]
    for i in range(cumulative.shape[0]):
        if u < cumulative[i]:
            return i
    return cumulative.shape[0] - 1


@njit(cache=True)
def shuffle_nb(rng, arr):
    """In-place Fisher-Yates shuffle of a 1-D array (pseudo-random part of the stream)."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = rand_below_nb(rng, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@njit(cache=True)
def dice_rolled_nb(rng):
    """How many dice this stream has rolled."""
    return np.int64(rng[_IDX_DICE])


@njit(cache=True)
def raw_dice_rate_nb(seed, n):
    """Roll ``n`` d6 on one stream and return their sum (benchmark of the raw RNG)."""
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    seed_game_nb(rng, seed, 0)
    total = 0
    for _ in range(n):
        total += roll_die_nb(rng, 6)
    return total


# ---------------------------------------------------------------- Python helpers


def new_rng(seed: int, game_index: int, script: list[int] | None = None) -> np.ndarray:
    """The stream of game ``game_index`` of a run with ``seed``, optionally with scripted dice."""
    script = list(script or [])
    rng = np.zeros(RNG_WORDS + len(script), dtype=np.uint64)
    seed_game_nb(rng, np.uint64(seed % 2**64), np.uint64(game_index))
    if script:
        if any((not isinstance(v, (int, np.integer))) or v < 1 for v in script):
            raise ValueError(f"scripted dice must be positive integers, got {script}")
        rng[_IDX_SCRIPT_LEN] = len(script)
        rng[RNG_WORDS:] = np.asarray(script, dtype=np.uint64)
    return rng


def scripted_rng(dice: list[int], seed: int = 0) -> np.ndarray:
    """A stream whose next dice are exactly ``dice`` (then pseudo-random)."""
    return new_rng(seed, 0, dice)


def script_remaining(rng: np.ndarray) -> int:
    """Scripted dice not yet rolled (0 once the script is used up)."""
    return int(rng[_IDX_SCRIPT_LEN] - min(rng[_IDX_SCRIPT_POS], rng[_IDX_SCRIPT_LEN]))


def dice_rolled(rng: np.ndarray) -> int:
    return int(rng[_IDX_DICE])
