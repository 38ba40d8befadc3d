#!/usr/bin/env python3
"""Opens a kiebitz-match report (a file) in headless Chromium and checks that it opens at its
top (the title visible, window.scrollY 0) with the first game shown in the piece set's SVGs,
and that the current move of a long game is kept visible inside the move list without moving
the page.

usage: report-top.py FILE.html   (exit 0 when it holds; messages on stderr)
Run by tests/report.rs (`a_report_opens_at_its_top`).
"""

import os
import sys
import time

from headless import browser

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait


def fail(why):
    print(f"report-top: {why}", file=sys.stderr)
    sys.exit(1)


def main():
    path = os.path.abspath(sys.argv[1])
    d = browser()
    try:
        d.get("file://" + path)
        WebDriverWait(d, 20).until(lambda d: d.find_element(By.ID, "viewer").is_displayed())
        time.sleep(0.3)
        y = d.execute_script("return window.scrollY")
        if y != 0:
            fail(f"the page opened scrolled {y} px down, not at its title")
        # The board draws the piece set's SVGs (src/tournament/html/pieces.rs), not glyphs.
        pieces = d.find_elements(By.CSS_SELECTOR, "#viewer image.piece")
        if len(pieces) < 2 or not pieces[0].get_attribute("href").startswith("data:image/svg+xml"):
            fail(f"the board shows {len(pieces)} pieces of the piece set")
        # Step to the last move of the first game: the list scrolls, the page does not.
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        time.sleep(0.3)
        inside = d.execute_script(
            "const box = document.getElementById('moves');"
            "const cur = box.querySelector('.current');"
            "if (!cur) return 'no current move';"
            "const b = box.getBoundingClientRect(), c = cur.getBoundingClientRect();"
            "return (c.top >= b.top - 1 && c.bottom <= b.bottom + 1) ? 'ok' : "
            "'the current move is outside the list: ' + c.top + ' not in ' + b.top + '..' + b.bottom;")
        if inside != "ok":
            fail(inside)
        y = d.execute_script("return window.scrollY")
        if y != 0:
            fail(f"stepping through the moves scrolled the page {y} px")
    finally:
        d.quit()
    print("report-top: opens at its top; the move list follows the current move", file=sys.stderr)


if __name__ == "__main__":
    main()
