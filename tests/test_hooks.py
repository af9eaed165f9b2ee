"""Weak hooks (tavola.hooks): nothing once their object is gone, and copied or pickled with it."""

from __future__ import annotations

import copy
import pickle

import pytest

from tavola.chouette import Chouette
from tavola.dicesource import RandomDice
from tavola.hooks import weak_hook

pytestmark = pytest.mark.timeout(60)


class Owner:
    def __init__(self) -> None:
        self.heard: list[str] = []
        self.hook = weak_hook(self.hear)

    def hear(self, word: str) -> int:
        self.heard.append(word)
        return len(self.heard)


def test_a_hook_calls_its_object_while_it_lives_and_nothing_after() -> None:
    owner = Owner()
    hook = owner.hook
    assert hook("one") == 1
    assert owner.heard == ["one"]
    del owner
    assert hook("two") is None


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_hook_copied_with_its_object_calls_the_copy(how: str) -> None:
    owner = Owner()
    owner.hook("before")
    again = pickle.loads(pickle.dumps(owner)) if how == "pickle" else copy.deepcopy(owner)
    assert again.hook("after") == 2
    assert again.heard == ["before", "after"]
    assert owner.heard == ["before"]


def test_a_hook_whose_object_is_gone_copies_as_nothing() -> None:
    owner = Owner()
    hook = owner.hook
    del owner
    assert pickle.loads(pickle.dumps(hook))("word") is None


def test_a_chouette_pickled_in_the_middle_of_a_game_goes_on_recording_its_log() -> None:
    chouette = Chouette(dice=RandomDice(seed=1), players=["Ann", "Bob", "Cy"])
    chouette.start_game()
    again = pickle.loads(pickle.dumps(chouette))
    game = again.game
    assert game is not None
    before = len(again.log)
    game.apply(game.legal_actions(game.to_act[0])[0])
    assert len(again.log) > before  # the restored game tells the restored session
    assert len(chouette.log) == before
