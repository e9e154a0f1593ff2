"""Compares the DOM Chromium dumped for a streamed page with the whole render's.

usage: compare-dom.py WHOLE_DOM STREAMED_DOM NAME

Fails when the streamed DOM still holds a fallback, a boundary marker, a template or a script, or
when its visible text differs from the whole render's.
"""
import re
import sys
from html.parser import HTMLParser


class Visible(HTMLParser):
    """The visible text of a page, one string per text run, and what the page still holds."""

    HIDDEN = {"script", "style", "template", "head", "title"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []
        self.hidden = 0
        self.tags = set()
        self.comments = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag in self.HIDDEN:
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.text.append(" ".join(data.split()))

    def handle_comment(self, data):
        self.comments.append(data)


def parse(path):
    page = Visible()
    with open(path, encoding="utf-8") as file:
        page.feed(file.read())
    return page


whole, streamed, name = parse(sys.argv[1]), parse(sys.argv[2]), sys.argv[3]
problems = []
if any(re.match(r"/?sk:", comment) for comment in streamed.comments):
    problems.append("a boundary marker is left: " + ", ".join(streamed.comments))
for tag in ("template", "script"):
    if tag in streamed.tags:
        problems.append(f"a <{tag}> is left in the DOM")
fallbacks = [text for text in streamed.text if "Loading" in text]
if fallbacks:
    problems.append("a fallback is still shown: " + ", ".join(fallbacks))
if streamed.text != whole.text:
    problems.append(f"visible text differs:\n  whole:    {whole.text}\n  streamed: {streamed.text}")
for expected in ("1204", "37", "No open tasks.", "Could not load alerts", "Ship it & see <what> happens!"):
    if not any(expected in text for text in streamed.text):
        problems.append(f"missing resolved content: {expected}")
if problems:
    print(f"browser check {name}: FAILED")
    for problem in problems:
        print("  - " + problem)
    sys.exit(1)
print(f"browser check {name}: ok ({len(streamed.text)} text runs, same as the whole render)")
