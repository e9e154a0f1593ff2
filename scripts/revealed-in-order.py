"""Checks, in the DOM Chromium dumped mid-stream for the Dashboard with its cards in a forwards
SuspenseList, that the cards shown with their content run from the top: no card shows its content
while a card above it still shows its placeholder (a card that failed shows its error at once,
as errors are not held back, and is left out).

usage: revealed-in-order.py DOM NAME
"""
import sys
from html.parser import HTMLParser


class Cards(HTMLParser):
    """The class of each card section, in document order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.cards = []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "section" and "card" in classes:
            self.cards.append(classes)


def main():
    dom, name = sys.argv[1], sys.argv[2]
    parser = Cards()
    with open(dom, encoding="utf-8") as file:
        parser.feed(file.read())
    shown = ["loading" not in card for card in parser.cards if "error" not in card]
    # Revealed cards first, then at most one placeholder (a collapsed tail), then nothing.
    revealed = shown.index(False) if False in shown else len(shown)
    if any(shown[revealed:]) or len(shown) - revealed > 1:
        print(f"{name}: cards shown out of order: {parser.cards}")
        sys.exit(1)


main()
