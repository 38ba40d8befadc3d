#!/usr/bin/env python3
"""End-to-end test of kiebitz-web in a real headless Chromium (Debian's chromium and
chromium-driver, driven over WebDriver by Python selenium).

For each of the five games it opens the lobby, sets the engine seats to a short think time,
starts the game, plays the human seat by clicking squares on the SVG board (a legal move read
from the API, then clicked: the piece, the target, the promotion choice), lets the engine
answer, and goes on until the page shows the game's result. Chess also checks the promotion
chooser, Undo and Flip; the match report page (/report, linked from the lobby) makes the report
of tests/data/book-games.pgn and refuses garbage. One screenshot per game, in full swing, goes
to --shots (replacing the one there).

    python3 scripts/gui/web-e2e.py --url http://127.0.0.1:8080 --shots docs/img

Exit status 0 when every game reached its result; messages on stderr.
"""

import argparse
import json
import os
import random
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

GAMES = [
    # game, variant, think time (ms) of the engine seats, search of each engine seat
    ("chess", "chess", 20, None),
    ("raeuber", "raeuberschach", 20, None),
    ("pawns", "pawns5", 20, None),
    ("crash", "crash", 20, None),
    ("chamaeleon", "chamaeleon4", 10, ["paranoid", "brs", "maxn"]),
]
MAX_PLIES = 400
# The screenshot of a game is taken when a person is to move after this many plies (or at
# the end if the game is shorter).
SHOT_AT = {"chess": 12, "raeuber": 8, "pawns": 6, "crash": 4, "chamaeleon": 12}


def log(*args):
    print("web-e2e:", *args, file=sys.stderr, flush=True)


def browser():
    opts = Options()
    opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--disable-gpu", "--window-size=1100,760", "--hide-scrollbars"):
        opts.add_argument(flag)
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=opts)


def state(driver, game_id):
    """The game's state, read through the page's own API from inside the page."""
    text = driver.execute_script(
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send();"
        "return r.responseText;", f"/api/game/{game_id}")
    return json.loads(text)


def click_square(driver, sq):
    for _ in range(3):
        try:
            driver.find_element(By.CSS_SELECTOR, f'#board [data-sq="{sq}"]').click()
            return
        except StaleElementReferenceException:  # the board was drawn anew meanwhile
            time.sleep(0.05)
    raise AssertionError(f"could not click {sq}")


def wait_ready(driver, timeout=30):
    """Waits until a person is to move or the game is over."""
    WebDriverWait(driver, timeout).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") in ("human", "over"))


def start(driver, url, game, variant, ms, searches, fen=None):
    driver.get(url + "/")
    card = WebDriverWait(driver, 20).until(
        lambda d: d.find_element(By.CSS_SELECTOR, f'.card[data-game="{game}"]'))
    Select(card.find_element(By.CSS_SELECTOR, "select.variant")).select_by_value(variant)
    seats = card.find_elements(By.CSS_SELECTOR, ".seat")
    for i, seat in enumerate(seats):
        Select(seat.find_element(By.CSS_SELECTOR, ".seat-kind")).select_by_value("human" if i == 0 else "engine")
        box = seat.find_element(By.CSS_SELECTOR, ".seat-ms")
        box.clear()
        box.send_keys(str(ms))
        if searches and i > 0:
            Select(seat.find_element(By.CSS_SELECTOR, ".seat-search")).select_by_value(searches[(i - 1) % len(searches)])
    if fen:
        card.find_element(By.CSS_SELECTOR, "input.fen").send_keys(fen)
    card.find_element(By.ID, "start-" + game).click()
    WebDriverWait(driver, 20).until(lambda d: "/play/" in d.current_url)
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-sq]"))
    return driver.current_url.rsplit("/", 1)[1]


def play_move(driver, game_id, rng):
    """Plays a random legal move of the human seat by clicking; returns its text."""
    st = state(driver, game_id)
    mv = rng.choice(st["legal"])
    plies = len(st["history"])
    if mv["move"] == "0000":
        driver.find_element(By.ID, "pass").click()
    else:
        click_square(driver, mv["from"])
        targets = driver.find_elements(By.CSS_SELECTOR, f'#board [data-target="{mv["to"]}"]')
        assert targets, f"no highlighted target {mv['to']} after clicking {mv['from']}"
        click_square(driver, mv["to"])
        if mv.get("promotion"):
            # The chooser opens when several moves share the two squares; a lone promotion
            # (or a move the page already sent) advances the game instead.
            def chooser_or_played(d):
                played = int(d.find_element(By.TAG_NAME, "body").get_attribute("data-plies") or 0) > plies
                return played or d.find_elements(By.CSS_SELECTOR, "#promo.open button")
            WebDriverWait(driver, 10).until(chooser_or_played)
            choice = driver.find_elements(By.CSS_SELECTOR, f'#promo.open button[data-promo="{mv["promotion"]}"]')
            if choice:
                choice[0].click()
    WebDriverWait(driver, 30).until(
        lambda d: int(d.find_element(By.TAG_NAME, "body").get_attribute("data-plies") or 0) > plies)
    return mv["move"]


def check_chess_controls(driver, url):
    """Promotion by the chooser, Undo, Flip, from a FEN typed in the lobby."""
    gid = start(driver, url, "chess", "chess", 20, None, fen="k7/4P3/8/8/8/8/8/K7 w - - 0 1")
    wait_ready(driver)
    click_square(driver, "e7")
    click_square(driver, "e8")
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#promo.open button"))
    labels = sorted(b.get_attribute("data-promo") for b in driver.find_elements(By.CSS_SELECTOR, "#promo button"))
    assert labels == ["b", "n", "q", "r"], labels
    driver.find_element(By.CSS_SELECTOR, '#promo button[data-promo="r"]').click()
    WebDriverWait(driver, 30).until(lambda d: len(state(d, gid)["history"]) >= 2)
    wait_ready(driver)
    st = state(driver, gid)
    assert st["history"][0]["move"] == "e7e8r", st["history"]
    assert driver.find_elements(By.CSS_SELECTOR, '#board [data-piece="R"]'), "no white rook drawn"
    assert driver.find_elements(By.CSS_SELECTOR, "#board .last"), "last move not marked"
    def a8_x():
        return float(driver.find_element(By.CSS_SELECTOR, '#board rect.square[data-square="a8"]').get_attribute("x"))
    before = a8_x()
    driver.find_element(By.ID, "flip").click()
    assert a8_x() > before, "flip did not move a8 to the right"
    driver.find_element(By.ID, "flip").click()
    assert a8_x() == before, "flipping twice did not restore the board"
    driver.find_element(By.ID, "undo").click()
    WebDriverWait(driver, 10).until(lambda d: len(state(d, gid)["history"]) == 0)
    log("chess: promotion chooser, last move, flip and undo work")


def check_report(driver, url):
    """The lobby's link to /report; a pasted PGN gives the report in the frame; garbage an error."""
    driver.get(url + "/")
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.ID, "report-link"))[0].click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.ID, "report-pgn"))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "tests", "data", "book-games.pgn"), encoding="utf-8") as f:
        pgn = f.read()
    box = driver.find_element(By.ID, "report-pgn")
    driver.execute_script("arguments[0].value = arguments[1];", box, pgn)
    driver.find_element(By.ID, "report-make").click()
    frame = WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "report-frame")
                                            if d.find_element(By.ID, "report-frame").is_displayed() else None)
    driver.switch_to.frame(frame)
    rows = WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "tr.standing"))
    engines = sorted(r.get_attribute("data-engine") for r in rows)
    driver.switch_to.default_content()
    assert engines == ["A", "B", "C"], engines
    driver.execute_script("arguments[0].value = 'no game here';", box)
    driver.find_element(By.ID, "report-make").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "report-error").text)
    log(f"report: standings of {engines} from a pasted PGN; garbage refused: "
        f"{driver.find_element(By.ID, 'report-error').text[:60]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8080")
    ap.add_argument("--shots", default=None, help="folder for one screenshot per game")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    url = args.url.rstrip("/")
    rng = random.Random(args.seed)
    driver = browser()
    failures = 0
    try:
        check_chess_controls(driver, url)
        check_report(driver, url)
        for game, variant, ms, searches in GAMES:
            began = time.time()
            gid = start(driver, url, game, variant, ms, searches)
            plies = 0
            shot = os.path.join(args.shots, f"web-{game}.png") if args.shots else None
            if shot:
                os.makedirs(args.shots, exist_ok=True)
                if os.path.exists(shot):
                    os.remove(shot)
            while plies < MAX_PLIES:
                wait_ready(driver)
                body = driver.find_element(By.TAG_NAME, "body")
                if body.get_attribute("data-state") == "over":
                    break
                if shot and plies >= SHOT_AT[game] and not os.path.exists(shot):
                    driver.save_screenshot(shot)  # the game in full swing
                play_move(driver, gid, rng)
                plies = int(body.get_attribute("data-plies"))
            wait_ready(driver)
            result = driver.find_element(By.ID, "result").text
            st = state(driver, gid)
            if not result or st["result"] is None:
                log(f"{game}: no result after {plies} plies")
                failures += 1
                continue
            if st["result"]["score"] not in result:
                log(f"{game}: the page shows '{result}', the API {st['result']}")
                failures += 1
            moves = driver.find_elements(By.CSS_SELECTOR, "#moves td")
            assert moves, f"{game}: empty move list"
            pgn = driver.find_element(By.ID, "pgn").get_attribute("href")
            assert pgn.endswith(f"/api/game/{gid}/pgn"), pgn
            log(f"{game} ({variant}): {len(st['history'])} plies, '{result}' in {time.time() - began:.1f} s")
            if shot and not os.path.exists(shot):
                driver.save_screenshot(shot)
    finally:
        driver.quit()
    print(f"{len(GAMES) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
