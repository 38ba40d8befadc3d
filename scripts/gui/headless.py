"""Headless Chromium for the report scripts, started as web-e2e.py starts it (the same flags
and environment names): `from headless import browser` in a script of this folder."""

import importlib.util
import os


def browser():
    """A Selenium driver of headless Chromium, from web-e2e.py's own `browser()`."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("web_e2e", os.path.join(here, "web-e2e.py"))
    web_e2e = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(web_e2e)
    return web_e2e.browser()
