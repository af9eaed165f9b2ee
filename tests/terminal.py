"""Driving ``tavola play`` in a pseudo-terminal, as a person at the keyboard would."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect

from tavola import Dice
from tavola.ids import parse_position

PROMPT = re.compile(r"> $", re.MULTILINE)
POSITION_ID = re.compile(r": ([A-Za-z0-9+/]{14})   ")  # the gnubg Position ID under the board, any language
DICE_IN_PROMPT = re.compile(r"\((\d)-(\d)\): ")
START = 120
"""Seconds to wait for output: on a fresh clone the first start compiles the kernels, with other tests running."""


def environment(home: Path, language: str = "en", without: tuple[str, ...] = ()) -> dict[str, str]:
    """A clean environment: files under ``home``, a fixed language, a wide terminal; ``without`` unset."""
    return {
        **{name: value for name, value in os.environ.items() if name not in without},
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "TAVOLA_LANG": language,
        "COLUMNS": "120",
        "LINES": "50",
        "TERM": "dumb",
    }


class Terminal:
    """``tavola COMMAND ARGS`` (``play`` by default) in a pty; :meth:`next_prompt` reads up to the next prompt."""

    def __init__(
        self,
        home: Path,
        *args: str,
        language: str = "en",
        timeout: float = START,
        command: str = "play",
        without: tuple[str, ...] = (),
    ) -> None:
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "tavola", command, *args],
            env=environment(home, language, without),
            encoding="utf-8",
            timeout=timeout,
            dimensions=(50, 120),
        )
        self.transcript = ""
        self.position_id: str | None = None
        self._last: tuple[str, str] = ("", "")  # the last prompt and what was typed at it

    def next_prompt(self) -> str:
        """Everything printed up to the next prompt, the prompt included."""
        self.child.expect(PROMPT)
        text = str(self.child.before) + str(self.child.after)
        self.transcript += text
        found = POSITION_ID.findall(text)
        if found:
            self.position_id = found[-1]
        return text

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self.transcript += str(self.child.before)
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def first_legal_play(self, prompt: str) -> str:
        """A legal play for the roll the prompt shows, from the Position ID drawn above it."""
        match = DICE_IN_PROMPT.search(prompt)
        assert match is not None, prompt
        assert self.position_id is not None, prompt
        position = parse_position(self.position_id)
        plays = position.legal_plays(Dice(int(match.group(1)), int(match.group(2))))
        return plays[len(plays) // 2].notation

    def play_out(self, *, answers: dict[str, str] | None = None, limit: int = 400) -> str:
        """Answer every prompt until the program ends: roll, a legal play, take, accept.

        ``answers`` maps a regular expression on the prompt to the line to send, once;
        returns the transcript.
        """
        answers = answers or {}
        for _ in range(limit):
            index = self.child.expect([PROMPT, pexpect.EOF])
            text = str(self.child.before) + (str(self.child.after) if index == 0 else "")
            self.transcript += text
            if index == 1:
                return self.transcript
            found = POSITION_ID.findall(text)
            if found:
                self.position_id = found[-1]
            prompt = text.splitlines()[-1] if text.splitlines() else text
            self.send(self._reply(prompt, text, answers))
        raise AssertionError(f"no end after {limit} prompts:\n{self.transcript[-3000:]}")

    def _reply(self, prompt: str, text: str, answers: dict[str, str]) -> str:
        """What a person would type, in any language: a legal play, else "take", else Enter.

        "take" answers a double or a resignation and starts the next game; where
        it means nothing (the roll) the same prompt comes back, and Enter rolls.
        """
        for pattern, line in list(answers.items()):
            if re.search(pattern, prompt):
                del answers[pattern]  # each answer is given once
                return line
        if DICE_IN_PROMPT.search(prompt):
            reply = self.first_legal_play(prompt)
        elif self._last == (prompt, "take"):
            reply = ""
        else:
            reply = "take"
        self._last = (prompt, reply)
        return reply
