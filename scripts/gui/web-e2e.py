#!/usr/bin/env python3
"""End-to-end test of kiebitz-web in a real headless Chromium (Debian's chromium and
chromium-driver, driven over WebDriver by Python selenium).

For each of the five games it opens the lobby, sets the engine seats to a short think time,
starts the game, plays the human seat by clicking squares on the SVG board (a legal move read
from the API, then clicked: the piece, the target, the promotion choice), lets the engine
answer, and goes on until the page shows the game's result. Chess also checks the promotion
chooser, Undo and Flip; the match report page (/report, linked from the lobby) makes the report
of tests/data/book-games.pgn and refuses garbage; clocks (a 1 s game lost on time, the lobby's
clock), takeback, a declined draw offer, resign and CRASH!'s rules panel; Chamäleon's panel per
player; a Räuberschach position's solved value. One screenshot per game, in full swing, goes
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
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
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


def clock_texts(driver):
    """The clocks' texts, read in one step: the page redraws a running clock every tick, so
    elements found first and read later can be gone (a stale element)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.clock[data-seat]')).sort((a, b) => a.dataset.seat - b.dataset.seat)"
        ".map((e) => e.querySelector('.time').textContent);")


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
                return played or d.find_elements(By.CSS_SELECTOR, "#board .promo")
            WebDriverWait(driver, 10).until(chooser_or_played)
            choice = driver.find_elements(By.CSS_SELECTOR, f'#board .promo[data-promo="{mv["promotion"]}"] rect')
            if choice:
                ActionChains(driver).move_to_element(choice[0]).click().perform()
    WebDriverWait(driver, 30).until(
        lambda d: int(d.find_element(By.TAG_NAME, "body").get_attribute("data-plies") or 0) > plies)
    return mv["move"]


def check_chess_controls(driver, url):
    """Promotion by the chooser, Undo, Flip, from a FEN typed in the lobby."""
    gid = start(driver, url, "chess", "chess", 20, None, fen="k7/4P3/8/8/8/8/8/K7 w - - 0 1")
    wait_ready(driver)
    click_square(driver, "e7")
    click_square(driver, "e8")
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .promo"))
    labels = sorted(b.get_attribute("data-promo") for b in driver.find_elements(By.CSS_SELECTOR, "#board .promo"))
    assert labels == ["b", "n", "q", "r"], labels
    # The chooser stands on the board, from the target square down: the queen on e8.
    queen = driver.find_element(By.CSS_SELECTOR, '#board .promo[data-promo="q"] rect')
    e8 = driver.find_element(By.CSS_SELECTOR, '#board rect.square[data-square="e8"]')
    assert (queen.get_attribute("x"), queen.get_attribute("y")) == (e8.get_attribute("x"), e8.get_attribute("y"))
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, '#board .promo[data-promo="r"] rect')).click().perform()
    WebDriverWait(driver, 30).until(lambda d: len(state(d, gid)["history"]) >= 2)
    wait_ready(driver)
    st = state(driver, gid)
    assert st["history"][0]["move"] == "e7e8r", st["history"]
    assert driver.find_elements(By.CSS_SELECTOR, '#board [data-piece="R"]'), "no white rook drawn"
    drawn = driver.find_element(By.CSS_SELECTOR, '#board .piece[data-piece="R"] image').get_attribute("href")
    assert drawn.startswith("data:image/svg+xml"), f"the rook is not the piece set's SVG: {drawn[:60]}"
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


def api_new(driver, body):
    """A new game made through the page's own API; returns its state."""
    text = driver.execute_script(
        "const r = new XMLHttpRequest(); r.open('POST', '/api/new', false);"
        "r.setRequestHeader('Content-Type', 'application/json'); r.send(arguments[0]);"
        "return r.responseText;", json.dumps(body))
    return json.loads(text)


def api_post(url, path, body):
    """A request made elsewhere (not by the page): straight to the server."""
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def api_get(url, path):
    with urllib.request.urlopen(url + path, timeout=30) as r:
        text = r.read().decode()
    try:
        return json.loads(text)
    except ValueError:
        return text


def body_attr(driver, name):
    return driver.find_element(By.TAG_NAME, "body").get_attribute("data-" + name)


def piece_on(driver, sq):
    found = driver.find_elements(By.CSS_SELECTOR, f'#board .piece[data-on="{sq}"]')
    return found[0].get_attribute("data-piece") if found else None


def drag(driver, a, b):
    for _ in range(3):
        try:
            src = driver.find_element(By.CSS_SELECTOR, f'#board [data-sq="{a}"]')
            dst = driver.find_element(By.CSS_SELECTOR, f'#board [data-sq="{b}"]')
            ActionChains(driver).click_and_hold(src).move_by_offset(3, 3).move_to_element(dst).release().perform()
            return
        except StaleElementReferenceException:  # the board was drawn anew meanwhile
            ActionChains(driver).release().perform()
            time.sleep(0.05)
    raise AssertionError(f"could not drag {a}-{b}")


def check_board_moves(driver, url, shots):
    """Drag and drop, an illegal drop refused, stepping through the moves (buttons, keys, the
    move list), analysis started (lines, arrows, the graph) and stopped, the board flipped for
    a person playing Black."""
    gid = start(driver, url, "chess", "chess", 20, None)
    wait_ready(driver)
    drag(driver, "e2", "e4")
    WebDriverWait(driver, 10).until(lambda d: len(state(d, gid)["history"]) >= 1)
    assert state(driver, gid)["history"][0]["move"] == "e2e4", state(driver, gid)["history"]
    WebDriverWait(driver, 30).until(lambda d: body_attr(d, "plies") == "2" and body_attr(d, "state") == "human")
    sounds = int(body_attr(driver, "sounds") or 0)
    assert sounds >= 2, f"{sounds} tones for e4 and the reply"
    drag(driver, "g1", "g4")
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "refused") == "g1g4")
    assert "Illegal move" in driver.find_element(By.ID, "error").text
    assert len(state(driver, gid)["history"]) == 2, "an illegal drop changed the game"
    log(f"chess: drag and drop e2-e4 played ({sounds} tones), the drop g1-g4 refused")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "1")
    assert piece_on(driver, "e4") == "P" and piece_on(driver, "e2") is None
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "0")
    assert piece_on(driver, "e2") == "P" and piece_on(driver, "e4") is None
    driver.find_element(By.CSS_SELECTOR, '#moves td[data-ply="1"]').click()
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "1")
    driver.find_element(By.ID, "nav-end").click()
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "2")
    log("chess: arrow keys, Home, the move list and the end button step through the game")
    driver.find_element(By.ID, "analyse").click()
    WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#analysis .line")) == 3)
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .arrow"))
    assert state(driver, gid)["analysing"], "the server runs no analysis"
    text = driver.find_element(By.ID, "analysis").text
    assert "White's view" in text, text
    assert driver.find_elements(By.CSS_SELECTOR, "#graph path.eval"), "no evaluation graph"
    if shots:
        time.sleep(1.5)
        driver.set_window_size(1100, 900)  # tall enough for the graph under the board
        driver.execute_script("window.scrollTo(0, 0);")
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(shots, "web-analysis.png"))
        driver.set_window_size(1100, 760)
    driver.find_element(By.ID, "analyse").click()
    WebDriverWait(driver, 10).until(lambda d: not state(d, gid)["analysing"])
    assert body_attr(driver, "analysing") == "false"
    log(f"chess: analysis with 3 lines and arrows, then stopped: {text.splitlines()[0]}")
    black = api_new(driver, {"game": "chess", "seats": [{"kind": "engine", "movetime_ms": 20}, {"kind": "human"}]})
    driver.get(url + "/play/" + black["id"])
    wait_ready(driver)
    x = lambda sq: float(driver.find_element(By.CSS_SELECTOR, f'#board rect.square[data-square="{sq}"]').get_attribute("x"))
    assert x("a1") > x("h1"), "playing Black, the board is not flipped"
    log("chess: playing Black, the board is seen from Black's side")


def check_endings(driver, url, shots):
    """Clocks, takeback, resign, draw offer and the rules panel: a 1 s game in which the person
    does not move ends on time; a game with the lobby's 1 min clock shows both clocks, takes
    back a full move (the person's and the engine's reply), has its draw offer declined by the
    engine's rule, and is resigned with two clicks; CRASH!'s rules open with its notation."""
    st = api_new(driver, {"game": "chess", "clock": {"base_ms": 1000},
                          "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 20}]})
    driver.get(url + "/play/" + st["id"])
    wait_ready(driver)
    click_square(driver, "e2")
    click_square(driver, "e4")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".clock.running"))
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "state") == "over")
    result = driver.find_element(By.ID, "result").text
    assert "0-1" in result and "White loses on time" in result, result
    assert state(driver, st["id"])["result"]["reason"] == "White loses on time"
    times = clock_texts(driver)
    assert times[0] == "0:00.0" and times[1].startswith("0:00.") and times[1] != "0:00.0", times
    assert body_attr(driver, "clock") == "stopped"
    log(f"clock: a 1 s game in which White stops moving after e4 ends '{result}', clocks {times}")
    driver.get(url + "/")
    card = WebDriverWait(driver, 20).until(lambda d: d.find_element(By.CSS_SELECTOR, '.card[data-game="chess"]'))
    Select(card.find_element(By.CSS_SELECTOR, ".clock-choice")).select_by_value("60000:0")
    seat = card.find_elements(By.CSS_SELECTOR, ".seat")[1]
    box = seat.find_element(By.CSS_SELECTOR, ".seat-ms")
    box.clear()
    box.send_keys("20")
    card.find_element(By.ID, "start-chess").click()
    WebDriverWait(driver, 20).until(lambda d: "/play/" in d.current_url)
    gid = driver.current_url.rsplit("/", 1)[1]
    assert state(driver, gid)["clock"]["base_ms"] == 60000
    wait_ready(driver)
    click_square(driver, "e2")
    click_square(driver, "e4")
    WebDriverWait(driver, 30).until(lambda d: body_attr(d, "plies") == "2" and body_attr(d, "state") == "human")
    times = clock_texts(driver)
    assert len(times) == 2 and all(t.startswith(("1:00", "0:5")) for t in times), times
    if shots:
        time.sleep(1.2)  # White's clock visibly running
        running = driver.execute_script(  # read in one step: the clock is redrawn every tick
            "const c = document.querySelector('.clock.running'); return c && c.dataset.seat;")
        assert running == "0", f"White's clock runs, not {running}"
        driver.save_screenshot(os.path.join(shots, "web-clock.png"))
    driver.find_element(By.ID, "undo").click()
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "plies") == "0")
    assert state(driver, gid)["history"] == [], "takeback left moves"
    log(f"clock: the lobby's 1 min game shows {times}; takeback took back e4 and the reply")
    driver.find_element(By.ID, "draw").click()
    WebDriverWait(driver, 10).until(lambda d: "declined" in d.find_element(By.ID, "notice").text)
    log("draw: " + driver.find_element(By.ID, "notice").text)
    driver.find_element(By.ID, "resign").click()
    assert body_attr(driver, "state") == "human", "one click resigned"
    time.sleep(0.7)  # the confirming click counts from half a second on (a double click does not resign)
    driver.find_element(By.ID, "resign").click()
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "state") == "over")
    assert "White resigns" in driver.find_element(By.ID, "result").text
    log("resign: " + driver.find_element(By.ID, "result").text)
    st = api_new(driver, {"game": "crash", "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 20}]})
    driver.get(url + "/play/" + st["id"])
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.ID, "rules-button"))
    assert not driver.find_element(By.ID, "rules").is_displayed()
    driver.find_element(By.ID, "rules-button").click()
    rules = driver.find_element(By.ID, "rules")
    assert rules.is_displayed() and "1:1" in rules.text and "6:1" in rules.text, rules.text
    if shots:
        driver.save_screenshot(os.path.join(shots, "web-crash-rules.png"))
    log(f"rules: CRASH!'s rules open ({len(rules.text)} characters)")


def check_nseat_flags(driver, url):
    """Clocks with three players: South moves first in a three-player Chamäleon game on 1 s
    clocks (no clock runs before the first move), then nobody moves; West's flag falls, then
    North's (each put out, their panels reading 'out'), and South, the last one left, wins."""
    st = api_new(driver, {"game": "chamaeleon", "variant": "chamaeleon3", "clock": {"base_ms": 1000},
                          "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]})
    driver.get(url + "/play/" + st["id"])
    WebDriverWait(driver, 15).until(lambda d: body_attr(d, "state") == "human")
    time.sleep(1.2)
    assert body_attr(driver, "state") == "human" and body_attr(driver, "clock") == "stopped", "a clock ran before the first move"
    api_post(url, f"/api/game/{st['id']}/move", {"move": st["legal"][0]["move"]})
    WebDriverWait(driver, 15).until(lambda d: body_attr(d, "state") == "over")
    result = driver.find_element(By.ID, "result").text
    assert "South wins" in result and "West, North out of time" in result, result
    outs = driver.execute_script(
        "return Array.from(document.querySelectorAll('#players .player .who'), (e) => e.textContent);")
    assert outs[1:] == ["out", "out"] and outs[0] != "out", outs
    times = clock_texts(driver)
    assert times == ["0:01.0", "0:00.0", "0:00.0"], times
    log(f"clocks, three players: '{result}', panels {outs}, clocks {times}")


def check_raeuber_solved(driver, url, shots):
    """A Räuberschach position of the forced-win suite shows its solved value: a win for the
    side to move, proven by the server's proof-number search with a checked proof."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "tests", "data", "raeuber-early-wins.txt"), encoding="utf-8") as f:
        fen = f.readline().split(";")[0]
    st = api_new(driver, {"game": "raeuber", "fen": fen,
                          "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 20}]})
    driver.get(url + "/play/" + st["id"])
    WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "solved").text.startswith("Solved:"))
    text = driver.find_element(By.ID, "solved").text
    assert "win for White" in text, text
    if shots:
        driver.save_screenshot(os.path.join(shots, "web-raeuber.png"))
    log(f"raeuber: {text}")


def check_chess960(driver, url):
    """The lobby's Chess960 starts from the numbered position asked for (0: BBQNNRKR)."""
    driver.get(url + "/")
    card = WebDriverWait(driver, 20).until(lambda d: d.find_element(By.CSS_SELECTOR, '.card[data-game="chess"]'))
    Select(card.find_element(By.CSS_SELECTOR, "select.variant")).select_by_value("chess960")
    card.find_element(By.CSS_SELECTOR, "input.start-number").send_keys("0")
    card.find_element(By.ID, "start-chess").click()
    WebDriverWait(driver, 20).until(lambda d: "/play/" in d.current_url)
    gid = driver.current_url.rsplit("/", 1)[1]
    fen = state(driver, gid)["fen"]
    assert fen.startswith("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w"), fen
    WebDriverWait(driver, 20).until(lambda d: piece_on(d, "a1") == "B")
    log(f"chess960: position 0 from the lobby: {fen}")


def check_phone_width(driver, url, shots):
    """At 390 px (a phone) neither the lobby nor a board page scrolls sideways."""
    driver.set_window_size(390, 844)
    try:
        for path in ("/", None):
            if path:
                driver.get(url + path)
                WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".card"))
            else:
                st = api_new(driver, {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]})
                driver.get(url + "/play/" + st["id"])
                WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#board [data-sq="h1"]'))
            wide, inner = driver.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth];")
            assert wide <= inner, f"{path or 'board'}: {wide} px wide in a {inner} px window"
            h1 = driver.find_element(By.CSS_SELECTOR, '#board [data-sq="h1"]') if not path else None
            if h1 is not None:
                right = driver.execute_script("return arguments[0].getBoundingClientRect().right;", h1)
                assert right <= inner, f"the h-file ends at {right} px in a {inner} px window"
                if shots:
                    driver.save_screenshot(os.path.join(shots, "web-phone.png"))
        log("390 px: the lobby and the board fit without sideways scrolling")
    finally:
        driver.set_window_size(1100, 760)


def wait_plies(driver, n, timeout=5):
    WebDriverWait(driver, timeout).until(lambda d: body_attr(d, "plies") == str(n))


def check_follow(driver, url):
    """The page follows the game: a move made elsewhere (straight to the API) shows within
    5 s, also after the page was left and shown again by Back and by Forward (the event
    stream reopened); the spectator link shows the game read-only, follows it, and says why
    a click on a piece does nothing."""
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = st["id"]
    driver.get(url + "/play/" + gid)
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "stream") == "open")
    began = time.time()
    api_post(url, f"/api/game/{gid}/move", {"move": "e4"})
    wait_plies(driver, 1)
    took = time.time() - began
    assert driver.find_element(By.CSS_SELECTOR, '#moves td[data-ply="1"]').text == "e4"
    driver.get(url + "/")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".card"))
    api_post(url, f"/api/game/{gid}/move", {"move": "e5"})
    driver.back()
    wait_plies(driver, 2)
    api_post(url, f"/api/game/{gid}/move", {"move": "Nf3"})
    wait_plies(driver, 3)
    driver.forward()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".card"))
    api_post(url, f"/api/game/{gid}/move", {"move": "Nc6"})
    driver.back()
    wait_plies(driver, 4)
    api_post(url, f"/api/game/{gid}/move", {"move": "Bc4"})
    wait_plies(driver, 5)
    link = driver.find_element(By.ID, "watch-link").get_attribute("href")
    assert link.endswith("/watch/" + st["watch"]), link
    assert driver.find_elements(By.ID, "copy-watch"), "no copy button for the spectator link"
    driver.get(link)
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "stream") == "open")
    assert "spectator" in driver.find_element(By.TAG_NAME, "body").get_attribute("class")
    click_square(driver, "c4")
    assert "spectator" in driver.find_element(By.ID, "error").text, driver.find_element(By.ID, "error").text
    api_post(url, f"/api/game/{gid}/move", {"move": "Bc5"})
    wait_plies(driver, 6)
    assert len(api_get(url, f"/api/game/{gid}")["history"]) == 6
    log(f"follow: a move made elsewhere showed in {took:.2f} s, also after Back and Forward; "
        f"the spectator link follows read-only")


def check_double_clicks(driver, url):
    """A double click does what one click does: Takeback takes back one full move, Resign
    only arms (its confirmation stands), Play in the lobby makes one game."""
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 20}]})
    gid = st["id"]
    driver.get(url + "/play/" + gid)
    wait_ready(driver)
    for a, b, n in (("e2", "e4", "2"), ("d2", "d4", "4")):
        click_square(driver, a)
        click_square(driver, b)
        WebDriverWait(driver, 30).until(lambda d: body_attr(d, "plies") == n and body_attr(d, "state") == "human")
    ActionChains(driver).double_click(driver.find_element(By.ID, "undo")).perform()
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "plies") != "4")
    time.sleep(1.0)
    plies = len(api_get(url, f"/api/game/{gid}")["history"])
    assert plies == 2, f"a double click on Takeback left {plies} plies of 4"
    ActionChains(driver).double_click(driver.find_element(By.ID, "resign")).perform()
    time.sleep(1.0)
    assert api_get(url, f"/api/game/{gid}")["result"] is None, "a double click resigned"
    before = api_get(url, "/api/status")["games"]
    driver.get(url + "/")
    card = WebDriverWait(driver, 20).until(lambda d: d.find_element(By.CSS_SELECTOR, '.card[data-game="pawns"]'))
    ActionChains(driver).double_click(card.find_element(By.ID, "start-pawns")).perform()
    WebDriverWait(driver, 20).until(lambda d: "/play/" in d.current_url)
    time.sleep(1.0)
    after = api_get(url, "/api/status")["games"]
    assert after == before + 1, f"a double click on Play made {after - before} games"
    log("double clicks: Takeback took back one full move, Resign only armed, Play made one game")


def check_stale(driver, url):
    """Analyse pressed while the engine thinks follows the game to the engine's move (lines
    of the new position, not 'Analysing…' for good); the engine's line of its move goes when
    stepping back and after a takeback."""
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 1500}]})
    gid = st["id"]
    driver.get(url + "/play/" + gid)
    wait_ready(driver)
    click_square(driver, "e2")
    click_square(driver, "e4")
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "state") == "engine" and body_attr(d, "plies") == "1")
    driver.find_element(By.ID, "analyse").click()
    wait_plies(driver, 2, 15)
    WebDriverWait(driver, 15).until(lambda d: body_attr(d, "analysis-ply") == "2" and
                                    d.find_elements(By.CSS_SELECTOR, "#analysis .line"))
    assert api_get(url, f"/api/game/{gid}")["analysing"], "the server analyses nothing"
    driver.find_element(By.ID, "analyse").click()
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "analysing") == "false")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis .line"))
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "0")
    assert not driver.find_elements(By.CSS_SELECTOR, "#analysis .line"), "the engine's line shows at the start"
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis .line"))
    driver.find_element(By.ID, "undo").click()
    wait_plies(driver, 0)
    assert not driver.find_elements(By.CSS_SELECTOR, "#analysis .line"), "the engine's line stayed after a takeback"
    log("stale: Analyse during the engine's search moved on to its move; its line went on Home and Takeback")


def check_check_mark(driver, url):
    """A king in check is marked on its square: after the page's own move, gone when stepping
    back, there again at the end."""
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = st["id"]
    for mv in ("e4", "f5"):
        api_post(url, f"/api/game/{gid}/move", {"move": mv})
    driver.get(url + "/play/" + gid)
    wait_ready(driver)
    assert not driver.find_elements(By.CSS_SELECTOR, "#board .check")
    click_square(driver, "d1")
    click_square(driver, "h5")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#board .check[data-check="e8"]'))
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "2")
    assert not driver.find_elements(By.CSS_SELECTOR, "#board .check")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#board .check[data-check="e8"]'))
    log("check: the king on e8 is marked after Qh5+, not at the ply before")


def check_clock_start(driver, url):
    """No clock runs before the first move; a timed game's PGN has a TimeControl tag and a
    [%clk] per move."""
    st = api_post(url, "/api/new", {"game": "chess", "clock": {"base_ms": 60000},
                                    "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 20}]})
    gid = st["id"]
    driver.get(url + "/play/" + gid)
    wait_ready(driver)
    time.sleep(1.5)
    times = clock_texts(driver)
    assert times == ["1:00", "1:00"] and body_attr(driver, "clock") == "stopped", f"before the first move: {times}"
    assert not driver.find_elements(By.CSS_SELECTOR, ".clock.running")
    click_square(driver, "e2")
    click_square(driver, "e4")
    WebDriverWait(driver, 30).until(lambda d: body_attr(d, "plies") == "2" and body_attr(d, "state") == "human")
    pgn = api_get(url, f"/api/game/{gid}/pgn")
    assert '[TimeControl "60+0"]' in pgn and pgn.count("[%clk ") == 2, pgn
    log(f"clock: none runs before the first move ({times}); the PGN has TimeControl and [%clk] per move")


def var_moves(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#moves .vmove'), (e) => e.dataset.san);")


def check_move_tree(driver, url):
    """The move tree: in a finished game a move at an earlier ply makes a variation (nested in
    the move list; the game's record unchanged at the server), a move inside it continues it,
    another move makes a nested variation, which is promoted and deleted; an engine line
    clicked plays onto the tree; the PGN holds the variations; a live game refuses a move at
    an earlier ply without Analyse, saying why; a PGN and a FEN import onto a new board."""
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = st["id"]
    for mv in ("f3", "e5", "g4", "Qh4#"):
        api_post(url, f"/api/game/{gid}/move", {"move": mv})
    driver.get(url + "/play/" + gid)
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "state") == "over")
    driver.find_element(By.CSS_SELECTOR, '#moves td[data-ply="1"]').click()
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "1")
    click_square(driver, "e7")
    click_square(driver, "e6")
    WebDriverWait(driver, 5).until(lambda d: var_moves(d) == ["e6"])
    click_square(driver, "d2")
    click_square(driver, "d4")
    WebDriverWait(driver, 5).until(lambda d: var_moves(d) == ["e6", "d4"])
    driver.find_element(By.CSS_SELECTOR, '#moves .vmove[data-san="e6"]').click()
    WebDriverWait(driver, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#moves .vmove.current[data-san="e6"]'))
    click_square(driver, "b1")
    click_square(driver, "c3")
    WebDriverWait(driver, 5).until(lambda d: var_moves(d) == ["e6", "d4", "Nc3"])
    text = driver.find_element(By.CSS_SELECTOR, "#moves .var").text
    assert "1... e6 2. d4 (2. Nc3)" in text, text
    record = [m["san"] for m in api_get(url, f"/api/game/{gid}")["history"]]
    assert record == ["f3", "e5", "g4", "Qh4#"], record
    driver.find_element(By.ID, "promote-var").click()
    WebDriverWait(driver, 5).until(lambda d: var_moves(d) == ["e6", "Nc3", "d4"])
    driver.find_element(By.ID, "delete-var").click()
    WebDriverWait(driver, 5).until(lambda d: var_moves(d) == ["e6", "d4"])
    driver.find_element(By.CSS_SELECTOR, '#moves .vmove[data-san="d4"]').click()
    driver.find_element(By.ID, "analyse").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis .line"))
    time.sleep(0.5)
    # Read the line and click it in one step: the analysis redraws its lines as it deepens.
    text = driver.execute_script(
        "const l = document.querySelector('#analysis .line[data-line=\"1\"]');"
        " const t = l.innerText; l.click(); return t;")
    sans = text.split("\n")[1].split()
    WebDriverWait(driver, 10).until(lambda d: len(var_moves(d)) > 2)
    played = var_moves(driver)
    assert played[2:] == sans, f"the line {sans} played as {played[2:]}"
    driver.find_element(By.ID, "analyse").click()
    driver.find_element(By.ID, "pgn").click()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return view.lastPgn || ''"))
    pgn = driver.execute_script("return view.lastPgn")
    assert "1. f3 e5 (1... e6 2. d4 " in pgn and "Qh4# 0-1" in pgn, pgn
    log(f"tree: variation {played} after 1. f3 in a finished game; the record kept; PGN: {pgn.split(chr(10))[-2][:70]}")
    # A live game: a move at an earlier ply needs Analyse.
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]})
    for mv in ("e4", "e5"):
        api_post(url, f"/api/game/{st['id']}/move", {"move": mv})
    driver.get(url + "/play/" + st["id"])
    wait_ready(driver)
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    WebDriverWait(driver, 5).until(lambda d: body_attr(d, "shown") == "1")
    click_square(driver, "c7")
    assert "Analyse" in driver.find_element(By.ID, "error").text, driver.find_element(By.ID, "error").text
    box = driver.find_element(By.ID, "import-text")
    box.send_keys('[Event "x"]\n\n1. d4 d5 2. c4 *')
    driver.find_element(By.ID, "import").click()
    WebDriverWait(driver, 10).until(lambda d: "/play/" + st["id"] not in d.current_url)
    wait_plies(driver, 3, 10)
    assert driver.find_element(By.CSS_SELECTOR, '#moves td[data-ply="3"]').text == "c4"
    driver.find_element(By.ID, "import-text").send_keys("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1")
    old = driver.current_url
    driver.find_element(By.ID, "import").click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url != old and d.find_elements(By.CSS_SELECTOR, '#board .check'))
    log("tree: a live game refuses an earlier-ply move without Analyse; a PGN and a FEN imported onto new boards")


def check_review(driver, url):
    """A review of every move: the engine's move leaves its evaluation, which the graph
    draws from an even start without the unknown plies; "Analyse the whole game" gives every
    position one, marks 5... Nf6?? a blunder in the list and the graph, and both survive a
    reload (kept at the server)."""
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 50}]})
    gid = st["id"]
    for mv in ("e4",):
        api_post(url, f"/api/game/{gid}/move", {"move": mv})
    api_post(url, f"/api/game/{gid}/engine", {})
    driver.get(url + "/play/" + gid)
    wait_ready(driver)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "graph").get_attribute("data-points") == "1")
    assert driver.find_element(By.ID, "graph").get_attribute("data-start") == "even"
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]})
    gid = st["id"]
    for mv in ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"):
        api_post(url, f"/api/game/{gid}/move", {"move": mv})
    driver.get(url + "/play/" + gid)
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "state") == "over")
    driver.find_element(By.ID, "review").click()
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#moves td[data-ply="6"] [data-judgement="blunder"]')
                                    and body_attr(d, "review") == "idle")
    driver.refresh()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#moves td[data-ply="6"] [data-judgement="blunder"]'))
    assert driver.find_elements(By.CSS_SELECTOR, '#graph .mark[data-judgement="blunder"][data-ply="6"]'), "no blunder on the graph"
    points = driver.find_element(By.ID, "graph").get_attribute("data-points")
    assert points == "7", f"{points} points for the seven positions before the mate"
    title = driver.find_element(By.CSS_SELECTOR, '#moves td[data-ply="6"] [data-judgement]').get_attribute("title")
    log(f"review: {driver.find_element(By.ID, 'review-status').text}; Nf6: {title}")


def text_of(driver, css):
    """An element's text read in one step (the page may redraw it between a find and a read)."""
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", css)


def board_width(driver):
    return driver.execute_script("return document.getElementById('board').getBoundingClientRect().width")


def check_board_trust(driver, url):
    """A board people trust: readable variant names in the lobby; a refused move says why
    (a capture is forced); solved values can be hidden during play; name strips beside the
    board follow Flip; a premove made while the engine thinks is played after its reply; the
    game-over dialog offers a rematch (seats the other way round); the board is resizable
    and uses a wide window (more than 560 px at 1440 px)."""
    driver.get(url + "/")
    card = WebDriverWait(driver, 20).until(lambda d: d.find_element(By.CSS_SELECTOR, '.card[data-game="pawns"]'))
    names = [o.text for o in card.find_elements(By.CSS_SELECTOR, "select.variant option")]
    assert "6×6, double step (pawns6d)" in names, names
    st = api_post(url, "/api/new", {"game": "raeuber", "fen": "6/6/6/2p3/3P2/6 w - - 0 1",
                                    "seats": [{"kind": "human"}, {"kind": "human"}]})
    driver.get(url + "/play/" + st["id"])
    wait_ready(driver)
    click_square(driver, "d2")
    click_square(driver, "d3")
    error = driver.find_element(By.ID, "error").text
    assert "capture is forced" in error, error
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "solved").is_displayed())
    driver.find_element(By.ID, "solved-toggle").click()
    assert not driver.find_element(By.ID, "solved").is_displayed(), "the solved value shows though hidden"
    driver.find_element(By.ID, "solved-toggle").click()
    st = api_post(url, "/api/new", {"game": "chess", "seats": [{"kind": "human"}, {"kind": "engine", "movetime_ms": 1500}]})
    gid = st["id"]
    driver.get(url + "/play/" + gid)
    wait_ready(driver)
    top = lambda: text_of(driver, "#strip-top .name")
    assert (top(), text_of(driver, "#strip-bottom .name")) == ("Black", "White")
    driver.find_element(By.ID, "flip").click()
    assert top() == "White", "the strips did not follow Flip"
    driver.find_element(By.ID, "flip").click()
    click_square(driver, "e2")
    click_square(driver, "e4")
    WebDriverWait(driver, 10).until(lambda d: body_attr(d, "state") == "engine")
    click_square(driver, "d2")
    click_square(driver, "d4")
    assert driver.find_elements(By.CSS_SELECTOR, "#board .premove"), "the premove is not marked"
    WebDriverWait(driver, 20).until(lambda d: len(api_get(url, f"/api/game/{gid}")["history"]) >= 3)
    assert api_get(url, f"/api/game/{gid}")["history"][2]["move"] == "d2d4", "the premove was not played"
    WebDriverWait(driver, 20).until(lambda d: body_attr(d, "state") == "human")
    driver.find_element(By.ID, "resign").click()
    time.sleep(0.7)
    driver.find_element(By.ID, "resign").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "gameover").is_displayed())
    assert "White resigns" in driver.find_element(By.ID, "gameover-result").text
    driver.find_element(By.ID, "rematch").click()
    WebDriverWait(driver, 10).until(lambda d: gid not in d.current_url and text_of(d, "#strip-bottom .name"))
    new = api_get(url, "/api/game/" + driver.current_url.rsplit("/", 1)[1])
    assert [s["kind"] for s in new["seats"]] == ["engine", "human"], new["seats"]
    WebDriverWait(driver, 10).until(lambda d: text_of(d, "#strip-bottom .name") == "Black")
    driver.set_window_size(1440, 900)
    try:
        driver.refresh()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-sq]"))
        wide = board_width(driver)
        assert wide > 560, f"the board is {wide} px at 1440 px"
        handle = driver.find_element(By.ID, "resize")
        ActionChains(driver).click_and_hold(handle).move_by_offset(-120, 0).release().perform()
        small = board_width(driver)
        assert small < wide - 80, f"resized from {wide} to {small}"
        driver.refresh()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-sq]"))
        assert abs(board_width(driver) - small) < 2, "the size was not kept"
        ActionChains(driver).double_click(driver.find_element(By.ID, "resize")).perform()
        assert abs(board_width(driver) - wide) < 2
    finally:
        driver.set_window_size(1100, 760)
    log(f"trust: variant names, 'capture is forced', solved values hidden, strips, a premove, rematch; board {wide:.0f} px at 1440, resized to {small:.0f}")


SIZE_GAMES = [
    # game, variant, plies played before the shots, a clock
    ("chess", "chess", 14, {"base_ms": 300000, "inc_ms": 3000}),
    ("raeuber", "raeuberschach", 8, None),
    ("antichess", "antichess", 10, None),
    ("pawns", "pawns6d", 6, None),
    ("chamaeleon", "chamaeleon4", 12, None),
]


def take_sizes(driver, url, shots, rng):
    """Screenshots at 1440 and 390 px of each game in play (web-GAME-1440.png,
    web-GAME-390.png): random moves, the whole game reviewed (the graph, the marks), the
    analysis running at 1440 px (lines, arrows)."""
    for game, variant, plies, clock in SIZE_GAMES:
        seats = 4 if game == "chamaeleon" else 2
        body = {"game": game, "variant": variant,
                "seats": [{"kind": "human"}] + [{"kind": "engine", "movetime_ms": 100}] * (seats - 1)}
        if clock:
            body["clock"] = clock
        st = api_post(url, "/api/new", body)
        gid = st["id"]
        for _ in range(plies):
            if st.get("result") or not st["legal"]:
                break
            st = api_post(url, f"/api/game/{gid}/move", {"move": rng.choice(st["legal"])["move"]})
        if seats == 2:
            api_post(url, f"/api/game/{gid}/review", {"movetime_ms": 100})
            deadline = time.time() + 60
            while api_get(url, f"/api/game/{gid}/review")["running"] and time.time() < deadline:
                time.sleep(0.3)
        for width, height in ((1440, 900), (390, 844)):
            driver.set_window_size(width, height)
            driver.get(url + "/play/" + gid)
            WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-sq]"))
            if width == 1440 and game not in ("chamaeleon",):
                driver.find_element(By.ID, "analyse").click()
                WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis .line"))
                time.sleep(1.5)
            else:
                time.sleep(1.0)
            driver.execute_script("window.scrollTo(0, 0);")
            driver.save_screenshot(os.path.join(shots, f"web-{game}-{width}.png"))
            if width == 1440 and game not in ("chamaeleon",):
                driver.find_element(By.ID, "analyse").click()
        log(f"sizes: {game} at 1440 and 390 px")
    driver.set_window_size(1100, 760)


OVERFLOW_JS = """
const bad = [];
for (const box of document.querySelectorAll('.card, .panel')) {
  const r = box.getBoundingClientRect();
  if (!r.width) continue;
  for (const e of box.querySelectorAll('*')) {
    const q = e.getBoundingClientRect();
    if (q.width && (q.right > r.right + 1 || q.left < r.left - 1))
      bad.push((box.dataset.game || box.className) + ': ' + e.tagName + '.' + e.className + ' ' +
        Math.round(q.left) + '..' + Math.round(q.right) + ' outside ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
}
return [document.documentElement.scrollWidth, window.innerWidth, bad.slice(0, 5)];
"""


def check_layouts(driver, url):
    """From 360 to 1920 px wide: no sideways scrolling, and nothing sticks out of a lobby card
    (the CRASH! strength list, Chamäleon's four seat rows) or a board page's panel (chess,
    and Chamäleon's four player panels)."""
    chess = api_new(driver, {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]})
    cham = api_new(driver, {"game": "chamaeleon", "variant": "chamaeleon4",
                            "seats": [{"kind": "human"}] * 4})
    try:
        for width in (360, 1280, 1400, 1920):
            driver.set_window_size(width, 900)
            for path in ("/", "/play/" + chess["id"], "/play/" + cham["id"]):
                driver.get(url + path)
                WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".card, #board"))
                time.sleep(0.2)
                wide, inner, bad = driver.execute_script(OVERFLOW_JS)
                assert wide <= inner, f"{path} at {width} px: {wide} px wide in a {inner} px window"
                assert not bad, f"{path} at {width} px: {bad}"
        log("layouts: 360, 1280, 1400 and 1920 px: no sideways scrolling, nothing out of its card or panel")
    finally:
        driver.set_window_size(1100, 760)


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
    ap.add_argument("--sizes", action="store_true",
                    help="only the screenshots at 1440 and 390 px of each game (into --shots)")
    ap.add_argument("--only", default=None, help="run only these checks (comma-separated names, e.g. check_follow)")
    args = ap.parse_args()
    url = args.url.rstrip("/")
    rng = random.Random(args.seed)
    driver = browser()
    failures = 0
    try:
        if args.shots:
            os.makedirs(args.shots, exist_ok=True)
        if args.sizes:
            take_sizes(driver, url, args.shots or ".", rng)
            return 0
        if args.only:
            for name in args.only.split(","):
                fn = globals()[name]
                try:
                    fn(*[a for a in (driver, url, args.shots)][:fn.__code__.co_argcount])
                except Exception:
                    driver.save_screenshot("/tmp/web-e2e-failed.png")
                    raise
            print("only: done")
            return 0
        check_follow(driver, url)
        check_double_clicks(driver, url)
        check_stale(driver, url)
        check_check_mark(driver, url)
        check_clock_start(driver, url)
        check_move_tree(driver, url)
        check_review(driver, url)
        check_board_trust(driver, url)
        check_chess_controls(driver, url)
        check_board_moves(driver, url, args.shots)
        check_chess960(driver, url)
        check_endings(driver, url, args.shots)
        check_nseat_flags(driver, url)
        check_phone_width(driver, url, args.shots)
        check_layouts(driver, url)
        check_report(driver, url)
        for game, variant, ms, searches in GAMES:
            began = time.time()
            gid = start(driver, url, game, variant, ms, searches)
            if game == "chamaeleon":
                panels = driver.find_elements(By.CSS_SELECTOR, "#players .player")
                names = [p.find_element(By.CSS_SELECTOR, ".name").text for p in panels]
                assert names == ["South", "West", "North", "East"], names
                log(f"chamaeleon: a panel per player: {[p.text.replace(chr(10), ' ') for p in panels]}")
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
                    driver.execute_script("window.scrollTo(0, 0);")
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
            if game == "chamaeleon":
                shares = driver.execute_script(
                    "return Array.from(document.querySelectorAll('#evalbar .seat-share'), (e) => e.title);")
                assert len(shares) == 4, f"the bar shows {shares}, not four seats' shares"
                log(f"chamaeleon: the bar stacks every seat's share: {shares}")
            log(f"{game} ({variant}): {len(st['history'])} plies, '{result}' in {time.time() - began:.1f} s")
            if shot and not os.path.exists(shot):
                driver.save_screenshot(shot)
        check_raeuber_solved(driver, url, args.shots)
    finally:
        driver.quit()
    print(f"{len(GAMES) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
