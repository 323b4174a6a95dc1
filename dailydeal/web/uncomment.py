"""The element's scripts served without their comments: the files stay as written (no build
step, read and diffed as they are), and what a browser downloads is their code. About a
quarter of the element's gzip bytes are comments (docs/embedding.md, "Size"); the English
page stays within 15 % of the element's size before it spoke other languages
(tests/test_web_size.py).

A small lexer of JavaScript as the static files write it: strings, template literals (with
``${...}`` nested), regular expression literals (a ``/`` where an operand is expected) and
comments. A comment is dropped; a line that held nothing else goes with it; a comment
between two tokens of a line becomes a space. Nothing else changes: not a string, not a
template's text, not a line of code (a browser's error still names the function)."""

from __future__ import annotations

import re

# after these, a "/" starts a regular expression literal (an operand is expected)
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^")
_KEYWORDS_BEFORE_REGEX = {"return", "typeof", "case", "do", "else", "in", "of", "new",
                          "delete", "void", "throw", "yield", "await", "instanceof"}
_WORD = re.compile(r"[\w$]+$")


def _string_end(src: str, i: int) -> int:
    """The index after the string literal opened at ``i``."""
    quote, j = src[i], i + 1
    while src[j] != quote:
        j += 2 if src[j] == "\\" else 1
    return j + 1


def _regex_end(src: str, i: int) -> int:
    """The index after the regular expression literal opened at ``i`` (its flags too)."""
    j, in_class = i + 1, False
    while in_class or src[j] != "/":
        if src[j] == "\\":
            j += 1
        elif src[j] == "[":
            in_class = True
        elif src[j] == "]":
            in_class = False
        if src[j] == "\n":
            raise ValueError(f"an unterminated regular expression at {i}")
        j += 1
    j += 1
    while j < len(src) and (src[j].isalnum() or src[j] == "_"):
        j += 1
    return j


def _expects_operand(line: str, before: str) -> bool:
    """Whether a "/" after the code ``before`` + ``line`` starts a regular expression."""
    code = (before + line).rstrip()
    if not code:
        return True
    if code[-1] in _BEFORE_REGEX:
        return True
    word = _WORD.search(code)
    return word is not None and word.group() in _KEYWORDS_BEFORE_REGEX


class _Out:
    """The text kept: whole lines, and the line being written."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.line = ""

    def add(self, text: str) -> None:
        head, newline, tail = text.rpartition("\n")
        if newline:
            self.lines.append(self.line + head + "\n")
            self.line = tail
        else:
            self.line += text

    def last(self) -> str:
        """The code before the current line's: its last line kept (for a "/")."""
        return self.lines[-1] if self.lines else ""


def strip_comments(src: str) -> str:
    """``src`` (a module) without its comments."""
    out = _Out()
    braces: list[int] = []  # per open ${...}: its depth of { }
    i, n = 0, len(src)

    def drop(end: int) -> int:
        """Drop the comment from i to ``end``; a line left empty goes too."""
        ends_line = end >= n or src[end] == "\n"
        if ends_line:
            out.line = out.line.rstrip(" \t")
            return end + 1 if not out.line else end  # a line of its own: gone with it
        if not ends_line and out.line and not out.line[-1].isspace():
            out.add(" ")
        return end

    while i < n:
        c = src[i]
        if c == "/" and src.startswith("//", i):
            end = src.find("\n", i)
            i = drop(n if end < 0 else end)
        elif c == "/" and src.startswith("/*", i):
            i = drop(src.index("*/", i + 2) + 2)
        elif c in "'\"":
            j = _string_end(src, i)
            out.add(src[i:j])
            i = j
        elif c == "`" or (c == "}" and braces and braces[-1] == 0):
            if c == "}":
                braces.pop()
            j = i + 1  # the template's text, to its end or to a ${
            while src[j] != "`" and not src.startswith("${", j):
                j += 2 if src[j] == "\\" else 1
            if src[j] == "`":
                j += 1
            else:
                j += 2
                braces.append(0)
            out.add(src[i:j])
            i = j
        elif c == "/" and _expects_operand(out.line, out.last()):
            j = _regex_end(src, i)
            out.add(src[i:j])
            i = j
        else:
            if braces and c == "{":
                braces[-1] += 1
            elif braces and c == "}":
                braces[-1] -= 1
            out.add(c)
            i += 1
    return "".join(out.lines) + out.line
