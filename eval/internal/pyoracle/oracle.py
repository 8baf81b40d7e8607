"""Python's answers for hookify's regex tests.

Reads a JSON list of requests on stdin:
  {"pattern": P, "subjects": [S, ...], "samples": N, "seed": K}
and prints a JSON list of answers, one per request:
  {"error": MSG}                        when re.compile(P, re.IGNORECASE) fails
  {"samples": [...], "matches": [...]}  otherwise

"samples" are N strings generated from P's parse tree (most of them match,
some are mutated so that they may not), followed by the given subjects;
"matches" says, for each sample and then each subject, whether
re.compile(P, re.IGNORECASE).search(s) finds a match.

Generated strings use only code points from a fixed pool plus the pattern's
own literals, never surrogates, so that they survive JSON and UTF-8. The
pool holds the edges of \w, \d and \b (letters and numbers beyond ASCII,
a connector and a combining mark that are not word characters) and keeps
only the characters this Python's Unicode database assigns.
"""

import json
import random
import re
import sys
import unicodedata

try:
    from re import _parser as P, _constants as C
except ImportError:  # Python < 3.11
    import sre_parse as P
    import sre_constants as C

POOL = (
    [chr(c) for c in range(0x20, 0x7F)]
    + list("\t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000")
    + list("\u00e9\u00c9\u00df\u1e9e\u017f\u212a\u0130\u0131\u03c3\u03c2\u03a3\u00b5\u03bc")
    + list("\u2705\u4e2d\u30fc\u0663\u00b2\U0001F600")
    + list("\uff10\u216b\u00bd\u203f\u0308\U0001D400\U0001F916")
)
POOL = [c for c in POOL if unicodedata.category(c) != "Cn"]
SPACE = [c for c in POOL if c.isspace()]
DIGIT = [c for c in POOL if re.fullmatch(r"\d", c)]
WORD = [c for c in POOL if re.fullmatch(r"\w", c)]


def ok_char(c):
    return not (0xD800 <= ord(c) <= 0xDFFF)


def low(c):
    l = c.lower()
    return l if len(l) == 1 else c


def in_class(ch, items, ignorecase):
    neg = False
    hit = False
    for op, av in items:
        if op is C.NEGATE:
            neg = True
        elif op is C.LITERAL:
            hit = hit or ch == chr(av) or (ignorecase and low(ch) == low(chr(av)))
        elif op is C.RANGE:
            lo, hi = av
            hit = hit or lo <= ord(ch) <= hi or (ignorecase and lo <= ord(low(ch)) <= hi)
        elif op is C.CATEGORY:
            hit = hit or cat_match(av, ch)
    return hit != neg


def cat_match(cat, ch):
    # The parse tree does not say whether a class is in ASCII mode: the
    # generator takes the Unicode reading, and a character that only
    # Unicode counts is one more near miss where the a flag is on.
    name = str(cat)
    m = {
        "CATEGORY_DIGIT": ch in DIGIT,
        "CATEGORY_NOT_DIGIT": ch not in DIGIT,
        "CATEGORY_SPACE": ch.isspace(),
        "CATEGORY_NOT_SPACE": not ch.isspace(),
        "CATEGORY_WORD": ch in WORD,
        "CATEGORY_NOT_WORD": ch not in WORD,
    }
    return m.get(name, False)


class Gen:
    def __init__(self, rnd, pool):
        self.rnd = rnd
        self.pool = pool

    def pick(self, pred):
        for _ in range(40):
            c = self.rnd.choice(self.pool)
            if pred(c):
                return c
        cands = [c for c in self.pool if pred(c)]
        return self.rnd.choice(cands) if cands else ""

    def seq(self, tree, out):
        for op, av in tree:
            self.one(op, av, out)

    def one(self, op, av, out):
        r = self.rnd
        if op is C.LITERAL:
            out.append(chr(av) if ok_char(chr(av)) else "")
        elif op is C.NOT_LITERAL:
            out.append(self.pick(lambda c: low(c) != low(chr(av))))
        elif op is C.ANY:
            out.append(self.pick(lambda c: c != "\n" or r.random() < 0.2))
        elif op is C.IN:
            items = av
            lits = []
            for o, a in items:
                if o is C.LITERAL:
                    lits.append(chr(a))
                elif o is C.RANGE:
                    lo, hi = a
                    lits.append(chr(r.randint(lo, hi)))
            cands = [c for c in lits if ok_char(c)]
            if cands and not any(o is C.NEGATE for o, _ in items) and r.random() < 0.7:
                out.append(r.choice(cands))
            else:
                out.append(self.pick(lambda c: in_class(c, items, True)))
        elif op is C.BRANCH:
            self.seq(r.choice(av[1]), out)
        elif op is C.SUBPATTERN:
            self.seq(av[-1], out)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT) or str(op) == "POSSESSIVE_REPEAT":
            lo, hi, sub = av
            extra = 3 if hi is C.MAXREPEAT else min(hi - lo, 3)
            for _ in range(lo + r.randint(0, max(extra, 0))):
                self.seq(sub, out)
        elif op is C.AT:
            if str(av) in ("AT_END", "AT_END_LINE") and r.random() < 0.2:
                out.append("\n")
        elif str(op) == "ATOMIC_GROUP":
            self.seq(av, out)
        # Lookarounds, group references and conditionals add nothing.


def flip(s, rnd):
    return "".join(c.swapcase() if rnd.random() < 0.3 else c for c in s)


def mutate(s, rnd, pool):
    k = rnd.randrange(9)
    if k == 0 or not s:
        return s + rnd.choice(pool)
    if k == 1:
        return rnd.choice(pool) + s
    if k == 2:
        i = rnd.randrange(len(s))
        return s[:i] + s[i + 1 :]
    if k == 3:
        i = rnd.randrange(len(s))
        return s[:i] + rnd.choice(pool) + s[i + 1 :]
    if k == 4:
        return s + "\n"
    if k == 5:
        return s + "\nx"
    if k == 6:
        return "x\n" + s
    if k == 7:
        return s.upper()
    return s.lower()


def main():
    reqs = json.load(sys.stdin)
    answers = []
    for q in reqs:
        pat = q["pattern"]
        try:
            rx = re.compile(pat, re.IGNORECASE)
        except (re.error, OverflowError, ValueError, RecursionError) as e:
            answers.append({"error": str(e)})
            continue
        rnd = random.Random(q.get("seed", 1))
        pool = POOL + [c for c in pat if ok_char(c) and c not in POOL]
        samples = []
        n = q.get("samples", 0)
        if n:
            tree = P.parse(pat, re.IGNORECASE)
            g = Gen(rnd, pool)
            for i in range(n):
                out = []
                g.seq(tree, out)
                s = "".join(out)
                if i % 3 == 1:
                    s = flip(s, rnd)
                elif i % 3 == 2:
                    s = mutate(s, rnd, pool)
                samples.append(s)
        subjects = samples + q.get("subjects", [])
        answers.append({
            "samples": samples,
            "matches": [rx.search(s) is not None for s in subjects],
        })
    json.dump(answers, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
