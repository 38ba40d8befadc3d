#!/usr/bin/env python3
"""Takes the screenshot of a kiebitz-match report (a file) that docs/report.md shows: headless
Chromium as web-e2e.py starts it, WIDTH px wide (default 1200), the page's top.

usage: report-shot.py FILE.html OUT.png [WIDTH [HEIGHT]]
"""

import os
import sys
import time

from headless import browser


def main():
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(__doc__.strip().splitlines()[-1])
    page, out = os.path.abspath(sys.argv[1]), sys.argv[2]
    width = int(sys.argv[3]) if len(sys.argv) > 3 else 1200
    height = int(sys.argv[4]) if len(sys.argv) > 4 else 900
    driver = browser()
    try:
        driver.set_window_size(width, height)
        driver.get("file://" + page)
        time.sleep(1.0)
        top = driver.execute_script("return window.scrollY;")
        if top:
            sys.exit(f"report-shot: the report opened {top} px down")
        driver.save_screenshot(out)
    finally:
        driver.quit()
    print(f"report-shot: {out} ({width}×{height})")


if __name__ == "__main__":
    main()
