"""Dice sources: seeded, entered by hand, and commit-reveal verifiable."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tavola import ALL_ROLLS, Dice, InvalidDiceError, TavolaError
from tavola.dicesource import (
    DiceSource,
    ManualDice,
    RandomDice,
    VerifiableDice,
    default_dice,
    derive_dice,
    verify,
)
from tavola.errors import DiceNeededError, DiceVerificationError, InvalidSecretError

dice_values = st.integers(min_value=1, max_value=6)
rolls = st.sampled_from(ALL_ROLLS)
secrets_bytes = st.binary(min_size=16, max_size=48)


def chi_square(counts: Counter[int] | Counter[Dice], expected: dict[object, float]) -> float:
    return sum((counts[key] - want) ** 2 / want for key, want in expected.items())


def uniform_faces(count: int) -> dict[object, float]:
    return {face: count / 6 for face in range(1, 7)}


# The chi-square bounds are far beyond any plausible value for fair dice (5 degrees of
# freedom: P(X > 40) < 1e-6; 20 degrees: P(X > 80) < 1e-8), and the seeds are fixed, so
# these tests cannot flake; they catch a missing face, a stuck die or a strong bias.
FACES_BOUND = 40.0
ROLLS_BOUND = 80.0


def reference_dice(secret: bytes, count: int) -> list[int]:
    """The derivation re-implemented from the module docstring alone."""
    dice: list[int] = []
    counter = 0
    while len(dice) < count:
        block = hmac.new(secret, counter.to_bytes(8, byteorder="big", signed=False), hashlib.sha256).digest()
        dice.extend(byte % 6 + 1 for byte in block if byte < 252)
        counter += 1
    return dice[:count]


# --- the protocol -------------------------------------------------------------------------------


def test_every_source_is_a_dice_source():
    for source in (RandomDice(), RandomDice(seed=1), ManualDice(), VerifiableDice(), default_dice()):
        assert isinstance(source, DiceSource)


def test_default_dice_are_random_dice_on_os_entropy():
    source = default_dice()
    assert isinstance(source, RandomDice)
    assert source.seed is None
    assert isinstance(source.rng, random.SystemRandom)
    assert all(1 <= source.roll_die() <= 6 for _ in range(100))


# --- RandomDice ---------------------------------------------------------------------------------


@given(seed=st.integers())
def test_a_seeded_random_dice_gives_the_same_sequence_twice(seed):
    def sequence(source: RandomDice) -> list[object]:
        return [source.roll(), source.roll_die(), source.roll_opening(), source.roll()]

    assert sequence(RandomDice(seed)) == sequence(RandomDice(seed))


@given(first=st.integers(), second=st.integers())
def test_different_seeds_give_different_dice(first, second):
    assume(first != second)
    one, other = RandomDice(first), RandomDice(second)
    # 40 dice agree by chance with probability 6**-40.
    assert [one.roll_die() for _ in range(40)] != [other.roll_die() for _ in range(40)]


@given(seed=st.integers(min_value=0, max_value=2**64))
def test_seeded_rolls_match_dice_roll_with_the_same_generator(seed):
    source, rng = RandomDice(seed), random.Random(seed)
    assert [source.roll() for _ in range(5)] == [Dice.roll(rng) for _ in range(5)]


def test_random_dice_can_share_an_existing_generator():
    rng = random.Random(5)
    source = RandomDice(rng=rng)
    assert source.rng is rng
    assert source.seed is None
    reference = random.Random(5)
    # The owner and the source draw from the one generator, in turn.
    for _ in range(10):
        assert source.roll_die() == reference.randint(1, 6)
        assert rng.random() == reference.random()


def test_random_dice_refuse_a_seed_and_a_generator_together():
    with pytest.raises(TypeError, match="not both"):
        RandomDice(1, rng=random.Random(1))


@pytest.mark.parametrize("seed", [1.5, "7", True])
def test_random_dice_refuse_a_seed_that_is_not_an_int(seed):
    with pytest.raises(TypeError, match="seed"):
        RandomDice(seed)


def test_random_dice_faces_are_uniform():
    source = RandomDice(seed=20240601)
    count = 60_000
    faces = Counter(source.roll_die() for _ in range(count))
    assert set(faces) == set(range(1, 7))
    assert chi_square(faces, uniform_faces(count)) < FACES_BOUND


def test_random_dice_rolls_follow_the_21_roll_distribution():
    source = RandomDice(seed=77)
    count = 36_000
    seen = Counter(source.roll() for _ in range(count))
    expected: dict[object, float] = {roll: count * (1 if roll.is_double else 2) / 36 for roll in ALL_ROLLS}
    assert set(seen) == set(ALL_ROLLS)
    assert chi_square(seen, expected) < ROLLS_BOUND


def test_random_dice_opening_rolls_are_two_independent_dice():
    source = RandomDice(seed=3)
    openings = Counter(source.roll_opening() for _ in range(36_000))
    assert set(openings) == {(a, b) for a in range(1, 7) for b in range(1, 7)}


def test_random_dice_repr_says_where_the_dice_come_from():
    assert repr(RandomDice(seed=7)) == "RandomDice(seed=7)"
    assert repr(RandomDice()) == "RandomDice(seed=None)"
    assert "random.Random" in repr(RandomDice(rng=random.Random(1)))


# --- ManualDice ---------------------------------------------------------------------------------


@given(entered=st.lists(rolls, max_size=20))
def test_manual_dice_give_the_rolls_in_the_order_entered(entered):
    source = ManualDice()
    for roll in entered:
        source.enter(roll)
    assert source.pending == len(entered)
    assert [source.roll() for _ in entered] == entered
    assert source.pending == 0


@given(entered=st.lists(rolls, max_size=20))
def test_manual_dice_read_text_as_dice_parse_does(entered):
    source = ManualDice()
    for roll in entered:
        source.enter(f"{roll.low}-{roll.high}")
    assert [source.roll() for _ in entered] == entered


def test_manual_dice_keep_one_queue_for_every_kind():
    source = ManualDice(["31"])
    source.enter_opening(2, 5)
    source.enter_die(6)
    source.enter(Dice(4, 4))
    assert source.pending == 4
    assert source.roll() == Dice(3, 1)
    assert source.roll_opening() == (2, 5)
    assert source.roll_die() == 6
    assert source.roll() == Dice(4, 4)


def test_manual_opening_rolls_keep_which_die_is_whose_and_may_tie():
    source = ManualDice()
    source.enter_opening(1, 6)
    source.enter_opening(3, 3)
    assert source.roll_opening() == (1, 6)
    assert source.roll_opening() == (3, 3)


@pytest.mark.parametrize(
    ("take", "needed"),
    [("roll", "turn's roll"), ("roll_die", "single die"), ("roll_opening", "opening roll")],
)
def test_empty_manual_dice_say_what_is_needed(take, needed):
    source = ManualDice()
    with pytest.raises(DiceNeededError, match=f"no dice entered: .*{needed}") as caught:
        getattr(source, take)()
    assert isinstance(caught.value, TavolaError)
    assert isinstance(caught.value, ValueError)


def test_manual_dice_refuse_an_entry_of_the_wrong_kind_and_keep_it():
    source = ManualDice()
    source.enter_opening(4, 2)
    with pytest.raises(DiceNeededError, match=r"turn's roll .* is needed, but the next dice entered are"):
        source.roll()
    with pytest.raises(DiceNeededError, match="single die"):
        source.roll_die()
    assert source.pending == 1
    assert source.roll_opening() == (4, 2)


@pytest.mark.parametrize("text", ["", "7-1", "3", "a-b"])
def test_manual_dice_refuse_unreadable_text_and_keep_the_queue(text):
    source = ManualDice(["31"])
    with pytest.raises(InvalidDiceError):
        source.enter(text)
    assert source.pending == 1


@pytest.mark.parametrize("values", [(0, 3), (7, 1), (True, 2), (2.0, 1)])
def test_manual_dice_refuse_bad_opening_dice(values):
    source = ManualDice()
    with pytest.raises(InvalidDiceError):
        source.enter_opening(*values)
    with pytest.raises(InvalidDiceError):
        source.enter_die(values[0])
    assert source.pending == 0


def test_manual_dice_refuse_an_entry_that_is_not_dice():
    source = ManualDice()
    with pytest.raises(InvalidDiceError):
        source.enter((3, 1))  # type: ignore[arg-type]
    with pytest.raises(InvalidDiceError):
        ManualDice(["31", "99"])


def test_manual_dice_repr_lists_what_is_queued():
    source = ManualDice(["31"])
    source.enter_opening(6, 2)
    source.enter_die(5)
    assert repr(source) == "ManualDice(pending=['roll 31', 'opening 6 and 2', 'die 5'])"
    source.clear()
    assert repr(source) == "ManualDice(pending=[])"


# --- VerifiableDice: the derivation -------------------------------------------------------------


def test_known_answer_all_zero_secret():
    assert derive_dice("00" * 32, 10) == [4, 4, 1, 5, 1, 3, 5, 1, 2, 2]


def test_known_answer_with_rejected_bytes():
    # Block 0 for this secret starts 255, 105, 250, 138, 252, ...: bytes 255 and 252 are rejected,
    # 250 (the largest accepted byte mod 6 is 5) gives a 5.
    assert derive_dice("16" * 32, 10) == [4, 5, 1, 6, 5, 5, 1, 5, 6, 6]


def test_known_answer_across_block_boundaries():
    secret = bytes(range(32)).hex()
    assert derive_dice(secret, 40)[25:40] == [1, 2, 3, 1, 5, 4, 5, 3, 3, 6, 4, 1, 5, 2, 6]


@given(secret=st.binary(max_size=64), count=st.integers(min_value=0, max_value=200))
def test_derivation_matches_an_independent_implementation_of_the_documented_scheme(secret, count):
    assert derive_dice(secret.hex(), count) == reference_dice(secret, count)


@given(secret=secrets_bytes, count=st.integers(min_value=0, max_value=100), more=st.integers(0, 100))
def test_deriving_more_dice_extends_the_sequence(secret, count, more):
    assert derive_dice(secret.hex(), count + more)[:count] == derive_dice(secret.hex(), count)


def test_derived_faces_are_uniform():
    count = 60_000
    faces = Counter(derive_dice(hashlib.sha256(b"tavola uniformity").hexdigest(), count))
    assert set(faces) == set(range(1, 7))
    assert chi_square(faces, uniform_faces(count)) < FACES_BOUND


def test_every_byte_value_is_rejected_or_gives_each_face_equally():
    # The mapping itself: 252 accepted byte values, 42 for each face.
    faces = Counter(byte % 6 + 1 for byte in range(256) if byte < 252)
    assert faces == dict.fromkeys(range(1, 7), 42)


def test_derive_dice_refuses_bad_input():
    with pytest.raises(InvalidSecretError):
        derive_dice("not hex", 3)
    with pytest.raises(InvalidSecretError):
        derive_dice("abc", 3)
    with pytest.raises(ValueError, match="count"):
        derive_dice("00" * 32, -1)


def test_upper_case_hex_is_read_as_lower_case():
    assert derive_dice("AB" * 32, 20) == derive_dice("ab" * 32, 20)


# --- VerifiableDice: the source -----------------------------------------------------------------


def test_commitment_is_the_sha256_of_the_secret():
    secret = bytes(range(100, 132))
    source = VerifiableDice(secret)
    assert source.commitment == hashlib.sha256(secret).hexdigest()
    assert source.reveal() == secret.hex()


def test_the_default_secret_is_32_fresh_random_bytes():
    one, other = VerifiableDice(), VerifiableDice()
    assert len(bytes.fromhex(one.reveal())) == 32
    assert one.reveal() != other.reveal()
    assert one.commitment != other.commitment


@given(
    secret=secrets_bytes, calls=st.lists(st.sampled_from(["roll", "roll_die", "roll_opening"]), max_size=30)
)
def test_the_dice_log_is_the_derived_sequence_in_order(secret, calls):
    source = VerifiableDice(secret)
    for call in calls:
        before = len(source.rolls_so_far)
        result = getattr(source, call)()
        taken = source.rolls_so_far[before:]
        if call == "roll":
            assert result == Dice(*taken)
        elif call == "roll_opening":
            assert result == taken
        else:
            assert (result,) == taken
    log = source.rolls_so_far
    assert list(log) == derive_dice(secret.hex(), len(log))
    verify(source.commitment, source.reveal(), log)


def test_the_log_keeps_a_turns_dice_unsorted():
    source = VerifiableDice(bytes(32))  # the stream starts 4, 4, 1, 5
    source.roll()
    assert source.roll() == Dice(5, 1)
    assert source.rolls_so_far == (4, 4, 1, 5)


def test_no_dice_after_the_secret_is_revealed():
    source = VerifiableDice()
    source.roll()
    assert not source.revealed
    source.reveal()
    assert source.revealed
    for take in (source.roll, source.roll_die, source.roll_opening):
        with pytest.raises(DiceNeededError, match="revealed"):
            take()
    assert len(source.rolls_so_far) == 2


@pytest.mark.parametrize("secret", [b"", b"short", bytes(15)])
def test_a_short_secret_is_refused(secret):
    with pytest.raises(InvalidSecretError, match="at least 16"):
        VerifiableDice(secret)


def test_a_secret_must_be_bytes():
    with pytest.raises(TypeError):
        VerifiableDice("00" * 32)  # type: ignore[arg-type]


def test_the_repr_shows_the_commitment_and_never_the_secret():
    secret = bytes(range(32))
    source = VerifiableDice(secret)
    source.roll()
    text = repr(source) + str(source)
    assert secret.hex() not in text
    assert secret.hex()[:8] not in text
    assert source.commitment[:16] in text
    assert "dice_used=2" in text


# --- verify -------------------------------------------------------------------------------------


@given(secret=secrets_bytes, count=st.integers(min_value=0, max_value=60))
def test_verify_accepts_the_real_sequence(secret, count):
    source = VerifiableDice(secret)
    for _ in range(count):
        source.roll_die()
    verify(source.commitment, source.reveal(), source.rolls_so_far)


@given(secret=secrets_bytes, data=st.data())
def test_verify_names_the_first_tampered_die(secret, data):
    source = VerifiableDice(secret)
    for _ in range(12):
        source.roll()
    dice = list(source.rolls_so_far)
    index = data.draw(st.integers(min_value=0, max_value=len(dice) - 1))
    dice[index] = data.draw(dice_values.filter(lambda value: value != dice[index]))
    with pytest.raises(DiceVerificationError, match=f"die {index} \\(counting from 0\\) was") as caught:
        verify(source.commitment, source.reveal(), dice)
    assert caught.value.index == index


def test_verify_reports_the_earliest_of_several_tampered_dice():
    source = VerifiableDice(bytes(32))
    for _ in range(10):
        source.roll_die()
    dice = list(source.rolls_so_far)
    dice[3], dice[7] = dice[3] % 6 + 1, dice[7] % 6 + 1
    with pytest.raises(DiceVerificationError) as caught:
        verify(source.commitment, source.reveal(), dice)
    assert caught.value.index == 3


def test_verify_rejects_a_wrong_secret():
    source = VerifiableDice(bytes(32))
    dice = [source.roll_die() for _ in range(10)]
    other = VerifiableDice(bytes(31) + b"\x01")
    with pytest.raises(DiceVerificationError, match="does not match the commitment") as caught:
        verify(source.commitment, other.reveal(), dice)
    assert caught.value.index is None


def test_verify_rejects_a_wrong_commitment():
    source = VerifiableDice(bytes(32))
    dice = [source.roll_die() for _ in range(10)]
    wrong = hashlib.sha256(b"something else").hexdigest()
    with pytest.raises(DiceVerificationError, match="does not match the commitment"):
        verify(wrong, source.reveal(), dice)


@given(secret=secrets_bytes, other=secrets_bytes)
def test_a_secret_chosen_to_fit_the_dice_still_fails_the_commitment(secret, other):
    assume(secret != other)
    source = VerifiableDice(other)
    dice = [source.roll_die() for _ in range(10)]
    with pytest.raises(DiceVerificationError):
        verify(VerifiableDice(secret).commitment, source.reveal(), dice)


def test_verify_reads_hex_in_either_case():
    source = VerifiableDice(bytes(range(32)))
    dice = [source.roll_die() for _ in range(10)]
    verify(source.commitment.upper(), source.reveal().upper(), dice)


def test_verify_rejects_a_secret_that_is_not_hex():
    with pytest.raises(DiceVerificationError, match="not a secret in hexadecimal"):
        verify("00" * 32, "zz", [1])


def test_verification_errors_are_tavola_errors():
    assert issubclass(DiceVerificationError, TavolaError)
    assert issubclass(DiceNeededError, TavolaError)
    assert issubclass(InvalidSecretError, TavolaError)
