#!/usr/bin/env python3
"""A client of the public gateway's limits, written as the family's Python
users write theirs: it fetches total load one day at a time, backs off when
the gateway answers 403 "Developer Over Qps" (waiting Retry-After, then
asking again for the same day), and stops at once on 403 "Developer Over
Rate": the day's quota is used up and asking again would only be refused.

Usage: quota.py BASE_URL CLIENT_ID CLIENT_SECRET DAYS

Prints one JSON line: {"fetched": N, "backoffs": N, "stopped": "over_rate"|"done"}.
"""
import datetime
import json
import sys
import time

import requests


def token(base, client_id, secret):
    r = requests.post(base + "/public-api/access-token", data={
        "grant_type": "client_credentials", "client_id": client_id, "client_secret": secret})
    r.raise_for_status()
    return r.json()["access_token"]


def gateway_error(r):
    """The gateway's refusal: its error-code header, else its page."""
    if r.status_code != 403:
        return None
    code = r.headers.get("X-Mashery-Error-Code", "")
    if code == "ERR_403_DEVELOPER_OVER_QPS" or "Developer Over Qps" in r.text:
        return "over_qps"
    if code == "ERR_403_DEVELOPER_OVER_RATE" or "Developer Over Rate" in r.text:
        return "over_rate"
    return None


def main():
    base, client_id, secret, days = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + token(base, client_id, secret)
    first = datetime.date(2024, 1, 1)
    fetched = backoffs = 0
    for i in range(days):
        day = (first + datetime.timedelta(days=i)).strftime("%d/%m/%Y")
        while True:
            r = session.get(base + "/load/v2.0/total-load", params={"dateFrom": day, "dateTo": day})
            err = gateway_error(r)
            if err == "over_qps":
                backoffs += 1
                time.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            if err == "over_rate":
                print(json.dumps({"fetched": fetched, "backoffs": backoffs, "stopped": "over_rate"}))
                return
            r.raise_for_status()
            fetched += 1
            break
    print(json.dumps({"fetched": fetched, "backoffs": backoffs, "stopped": "done"}))


if __name__ == "__main__":
    main()
