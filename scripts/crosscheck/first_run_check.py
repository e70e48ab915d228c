#!/usr/bin/env python3
"""Browser check of the live page as a first-run user meets it: headless Chromium, driven by Selenium.

A gateway that adopts (the default) and has adopted nothing: its card says so and how to go on, shows its log
(the `log` topic), lists the devices it has seen but not adopted (the `devices` request) and adopts one with a
click (a `connect` request), after which the device's card reads `connected`. Standard output is a line
protocol for tests:

    FIRST-RUN <gateway>                the gateway's card shows the first-run hint
    LOG <line>                         the log panel's line that holds --log-contains
    SEEN <address>                     the device is listed as seen, not adopted
    ADOPTED <family>/<id>              after the Adopt click, the device's card reads connected
    OK

Any failure prints `FAIL <reason>` (then the browser's console log) and exits 1. The helpers are
live_page_check.py's.
"""

import argparse
import sys
import time

from selenium.webdriver.common.by import By

from live_page_check import css_string, drive, field_text, open_page, say, wait_for


def gateway_field(driver, gateway, field, prop="textContent"):
    """A property of `[data-field=field]` in the gateway's card, or None; one script call, so never stale."""
    return driver.execute_script(
        "const c = document.querySelector(`[data-gateway=${arguments[0]}]`);"
        "const f = c && c.querySelector(`[data-field=${arguments[1]}]`);"
        "return f ? f[arguments[2]] : null;",
        css_string(gateway), css_string(field), prop)


def click(driver, gateway, action):
    button = driver.find_element(
        By.CSS_SELECTOR, f"[data-gateway={css_string(gateway)}] button[data-action={css_string(action)}]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def run(driver, args):
    left = open_page(driver, args)
    wait_for(driver, left(), f"the first-run hint of gateway {args.gateway}",
             lambda d: gateway_field(d, args.gateway, "first-run", "hidden") is False)
    say("FIRST-RUN", args.gateway)

    def logged(d):
        text = gateway_field(d, args.gateway, "log") or ""
        return next((line for line in text.split("\n") if args.log_contains in line), None)

    say("LOG", wait_for(driver, left(), f"a log line with {args.log_contains!r}", logged))

    # The gateway may not have seen the device yet: the list is asked for again until it is in it.
    selector = f"[data-gateway={css_string(args.gateway)}] [data-field=seen-devices] tr[data-address={css_string(args.address)}]"

    def seen(d):
        if d.find_elements(By.CSS_SELECTOR, selector):
            return True
        click(d, args.gateway, "seen")
        time.sleep(1)
        return False

    wait_for(driver, left(), f"{args.address} among the devices seen", seen)
    say("SEEN", args.address)
    row = driver.find_element(By.CSS_SELECTOR, selector)
    adopt = row.find_element(By.CSS_SELECTOR, 'button[data-action="adopt"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", adopt)
    adopt.click()
    wait_for(driver, left(), f"{args.device} to read connected",
             lambda d: field_text(d, args.device, "connection") == "connected")
    say("ADOPTED", args.device)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the live page, e.g. http://127.0.0.1:8080/")
    parser.add_argument("--gateway", required=True, help="the gateway's name, e.g. test")
    parser.add_argument("--address", required=True, help="the device to adopt, e.g. 00:11:22:33:44:51")
    parser.add_argument("--device", required=True, help="its <family>/<id>, e.g. belt/001122334451")
    parser.add_argument("--log-contains", required=True, help="text a line of the log panel must hold")
    parser.add_argument("--timeout", type=float, default=60, help="seconds for the whole check (60)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    return drive(parser.parse_args(), run)


if __name__ == "__main__":
    sys.exit(main())
