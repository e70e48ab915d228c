#!/usr/bin/env python3
"""Browser check of the live page: headless Chromium, driven by Selenium, against the real daemon.

Opens the page (a 1280×900 window), waits for the WebSocket and for the device's card to read
`connected`, watches the device's heading change, sends one command through the card's form, waits
for its reply and saves a screenshot. Standard output is a line protocol for tests:

    HEADING <first> -> <second>        two different headings the card showed, in that order
    REPLY <raw reply text>             the reply payload the card showed (the bridge's JSON reply)
    SETTINGS <gateway name>            with --gateway: the gateway's card shows its settings in effect (its `info`)
    OPTIONS <raw reply text>           with --options: the reply to the options its card's form sent
    DEVICE-OPTIONS <text>              with --device-option: what the device's card says is chosen for it
    TEMPLATE <json>                    what the card's Options button put in its gateway's options form
    DEVICE-OPTIONS-REPLY <raw reply>   the reply to that form, the --device-option values set in it
    DEVICE-OPTIONS-NOW <text>          what the device's card says once the gateway's info changed
    SCREENSHOT <path>                  the whole page, 1280 px wide
    RENAMED <family>/<id>              with --rename: the card's Rename button (its prompt given the new id) moved
                                       the device's card there, connected, and the old card went
    OK

The reply may be an error (the check is that one comes); with --expect-ok an error reply fails.
Any failure prints `FAIL <reason>` (then the browser's console log, if it can be read) and exits 1.
Selenium Manager is never asked for anything: Debian's chromium and chromedriver are named
explicitly (--chromium, --chromedriver).
"""

import argparse
import base64
import json
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait


class CheckFailed(Exception):
    pass


def say(*words):
    print(*words, flush=True)


def css_string(value):
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def make_driver(args):
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--disable-gpu", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=args.chromedriver), options=options)


def wait_for(driver, timeout, what, condition):
    """Polls `condition(driver)` until it returns something truthy; raises CheckFailed naming `what`."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d))
    except TimeoutException as error:
        raise CheckFailed(f"timed out after {timeout:.0f} s waiting for {what}") from error
    except WebDriverException as error:  # e.g. the page rebuilt the element after a reconnect
        raise CheckFailed(f"waiting for {what}: {(error.msg or type(error).__name__).splitlines()[0]}") from error


def card(driver, device):
    found = driver.find_elements(By.CSS_SELECTOR, f"[data-device={css_string(device)}]")
    return found[0] if found else None


def field_text(driver, device, field):
    """The text of `[data-field=field]` in the device's card, or None; read in one script call so a
    re-rendered page never leaves a stale element behind."""
    return driver.execute_script(
        "const c = document.querySelector(`[data-device=${arguments[0]}]`);"
        "const f = c && c.querySelector(`[data-field=${arguments[1]}]`);"
        "return f ? f.textContent.trim() : null;",
        css_string(device), css_string(field))


def as_int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def open_page(driver, args):
    """Opens the page and waits for its WebSocket; returns the seconds left of --timeout, as a function."""
    deadline = time.monotonic() + args.timeout

    def left():
        return max(1.0, deadline - time.monotonic())

    driver.get(args.url)
    wait_for(driver, left(), "the WebSocket (body data-live=connected)",
             lambda d: d.execute_script("return document.body.dataset.live") == "connected")
    return left


def run(driver, args):
    left = open_page(driver, args)
    wait_for(driver, left(), f"the card of {args.device}", lambda d: card(d, args.device))
    wait_for(driver, left(), f"{args.device} to read connected",
             lambda d: field_text(d, args.device, "connection") == "connected")

    def heading(d):  # a one-element list, so that heading 0 still counts as found
        value = as_int(field_text(d, args.device, "heading"))
        return [value] if value is not None else None

    [first] = wait_for(driver, left(), "a heading", heading)
    [second] = wait_for(driver, left(), f"the heading to change from {first}",
                        lambda d: (lambda h: h if h and h[0] != first else None)(heading(d)))
    say("HEADING", first, "->", second)

    box = card(driver, args.device)
    select = Select(box.find_element(By.CSS_SELECTOR, 'select[data-input="command"]'))
    names = [option.get_attribute("value") for option in select.options]
    if args.command not in names:
        raise CheckFailed(f"command {args.command!r} is not in the form (it has {', '.join(names) or 'none'})")
    select.select_by_value(args.command)
    textarea = box.find_element(By.CSS_SELECTOR, 'textarea[data-input="payload"]')
    driver.execute_script(
        "arguments[0].value = arguments[1];"
        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", textarea, args.payload)
    if textarea.get_property("value") != args.payload:
        raise CheckFailed("the payload did not land in the textarea")
    reply = box.find_element(By.CSS_SELECTOR, '[data-field="reply"]')
    driver.execute_script("arguments[0].removeAttribute('data-ok')", reply)
    button = box.find_element(By.CSS_SELECTOR, 'button[data-action="send"]')
    if not button.is_enabled():
        raise CheckFailed("the send button is disabled")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    ok = wait_for(driver, left(), "the reply (data-ok on the reply element)", lambda d: reply.get_attribute("data-ok"))
    text = driver.execute_script("return arguments[0].textContent", reply)
    say("REPLY", text)
    if args.expect_ok and ok != "true":
        raise CheckFailed(f"the reply is not ok (data-ok={ok})")

    if args.gateway:
        check_gateway(driver, args, left)
    if args.device_option:
        check_device_options(driver, args, left)

    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.3)  # one more chart frame
    save_page(driver, args.screenshot)
    say("SCREENSHOT", args.screenshot)

    if args.rename:
        check_rename(driver, args, left)


def check_rename(driver, args, left):
    """The device card's Rename button asks for the new id (a prompt) and sends the gateway's rename request; the
    device comes back under that id, and its old card goes once its retained topics are cleared."""
    box = card(driver, args.device)
    button = box.find_element(By.CSS_SELECTOR, 'button[data-action="rename"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    prompt = wait_for(driver, left(), "the rename prompt", lambda d: alert_present(d))
    prompt.send_keys(args.rename)
    prompt.accept()
    renamed = args.device.split("/")[0] + "/" + args.rename
    wait_for(driver, left(), f"{renamed} to read connected",
             lambda d: field_text(d, renamed, "connection") == "connected")
    wait_for(driver, left(), f"the card of {args.device} to go", lambda d: card(d, args.device) is None)
    say("RENAMED", renamed)


def alert_present(driver):
    try:
        return driver.switch_to.alert
    except NoAlertPresentException:
        return None


def check_gateway(driver, args, left):
    """The gateway's card shows its settings (from its retained info) and, with --options, sends them through the
    card's options form and reads the reply."""
    selector = f"[data-gateway={css_string(args.gateway)}]"

    def settings(d):
        text = d.execute_script(
            "const c = document.querySelector(arguments[0]);"
            "const f = c && c.querySelector('[data-field=\"settings\"]');"
            "return f ? f.textContent : null;", selector)
        return text if text and '"gateway"' in text else None

    wait_for(driver, left(), f"the settings of gateway {args.gateway}", settings)
    say("SETTINGS", args.gateway)
    if not args.options:
        return
    box = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].open = true", box.find_element(By.CSS_SELECTOR, '[data-field="settings-box"]'))
    textarea = box.find_element(By.CSS_SELECTOR, 'textarea[data-input="options"]')
    driver.execute_script("arguments[0].value = arguments[1];", textarea, args.options)
    reply = box.find_element(By.CSS_SELECTOR, '[data-field="options-reply-raw"]')
    button = box.find_element(By.CSS_SELECTOR, 'button[data-action="options"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait_for(driver, left(), "the options' reply", lambda d: reply.get_attribute("data-ok"))
    say("OPTIONS", driver.execute_script("return arguments[0].textContent", reply))


def check_device_options(driver, args, left):
    """The device's card says what its gateway's settings choose for it; its Options button fills the gateway's
    options form with them, which is sent with each --device-option KEY=VALUE set for --address; the card then
    says the new choice."""
    before = wait_for(driver, left(), f"the options of {args.device}",
                      lambda d: field_text(d, args.device, "options"))
    say("DEVICE-OPTIONS", before)
    button = card(driver, args.device).find_element(By.CSS_SELECTOR, 'button[data-action="device-options"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    gateway = driver.find_element(By.CSS_SELECTOR, f"[data-gateway={css_string(args.gateway)}]")
    textarea = gateway.find_element(By.CSS_SELECTOR, 'textarea[data-input="options"]')
    template = wait_for(driver, left(), "the options form filled by the card",
                        lambda d: (lambda v: v if '"devices"' in v else None)(textarea.get_property("value")))
    say("TEMPLATE", template)
    options = json.loads(template)
    for item in args.device_option:
        key, value = item.split("=", 1)
        options["options"]["devices"].setdefault(key, {})[args.address] = value
    driver.execute_script("arguments[0].value = arguments[1];", textarea, json.dumps(options))
    reply = gateway.find_element(By.CSS_SELECTOR, '[data-field="options-reply-raw"]')
    driver.execute_script("arguments[0].removeAttribute('data-ok')", reply)
    gateway.find_element(By.CSS_SELECTOR, 'button[data-action="options"]').click()
    wait_for(driver, left(), "the device options' reply", lambda d: reply.get_attribute("data-ok"))
    say("DEVICE-OPTIONS-REPLY", driver.execute_script("return arguments[0].textContent", reply))
    after = wait_for(driver, left(), f"the options of {args.device} to change from {before!r}",
                     lambda d: (lambda t: t if t and t != before else None)(field_text(d, args.device, "options")))
    say("DEVICE-OPTIONS-NOW", after)


def save_page(driver, path):
    """The whole page, as tall as it is, at the window's width (Chromium's DevTools capture); the
    visible part only if that is refused."""
    try:
        metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
        with open(path, "wb") as out:
            out.write(base64.b64decode(shot["data"]))
    except (WebDriverException, KeyError, OSError):
        if not driver.save_screenshot(path):
            raise CheckFailed(f"could not save the screenshot to {path}")


def console_log(driver):
    try:
        for entry in driver.get_log("browser"):
            say("CONSOLE", entry.get("level"), entry.get("message"))
    except Exception:  # not every driver keeps the log
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the live page, e.g. http://127.0.0.1:8080/ (with ?token=… if needed)")
    parser.add_argument("--device", required=True, help="<family>/<id>, e.g. belt/001122334451")
    parser.add_argument("--command", required=True, help="a command of the device's family, e.g. vibrate")
    parser.add_argument("--payload", required=True, help="the command's payload, as typed into the form")
    parser.add_argument("--screenshot", required=True, help="where to save the PNG")
    parser.add_argument("--timeout", type=float, default=60, help="seconds for the whole check (60)")
    parser.add_argument("--expect-ok", action="store_true", help="fail unless the reply is ok")
    parser.add_argument("--gateway", help="a gateway whose card must show its settings, e.g. test")
    parser.add_argument("--options", help="with --gateway: a request/options payload to send from its card")
    parser.add_argument("--device-option", action="append", default=[],
                        help="with --gateway and --address: KEY=VALUE set for the device from its card (streaming=off)")
    parser.add_argument("--address", help="the device's Bluetooth address, as its gateway's settings name it")
    parser.add_argument("--rename", help="a new id to give the device from its card, last (its rename request)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    return drive(parser.parse_args(), run)


def drive(args, check):
    """Runs `check(driver, args)` in a fresh headless Chromium: `OK` and 0, or `FAIL <reason>` (and the browser's
    console log) and 1, never a bare traceback; the browser is quit either way."""
    driver = None
    failed = True
    try:
        driver = make_driver(args)
        driver.set_page_load_timeout(args.timeout)
        check(driver, args)
        failed = False
        say("OK")
    except CheckFailed as failure:
        say("FAIL", failure)
    except WebDriverException as error:
        lines = (error.msg or str(error) or type(error).__name__).strip().splitlines()
        say("FAIL", "webdriver:", lines[0] if lines else type(error).__name__)
    except Exception as error:  # anything else is a failure too, never a bare traceback
        say("FAIL", f"{type(error).__name__}: {error}")
    finally:
        if driver is not None:
            if failed:
                console_log(driver)
            try:
                driver.quit()
            except Exception:
                pass
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
