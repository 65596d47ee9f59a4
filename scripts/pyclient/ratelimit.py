#!/usr/bin/env python3
"""A client that paces itself by the RateLimit fields of
draft-ietf-httpapi-ratelimit-headers, as a careful client of any API with
them would: after each answer, for every limit with no call left (r=0) it
waits that limit's t seconds before its next call; a wait longer than a
minute means the day's quota is used up, and it stops.

Usage: ratelimit.py BASE_URL CLIENT_ID CLIENT_SECRET MAX_CALLS

Prints one JSON line: {"admitted": N, "refused": N, "longest_wait": S,
"stopped": "quota"|"done"}.
"""
import json
import sys
import time

import requests


def token(base, client_id, secret):
    r = requests.post(base + "/public-api/access-token", data={
        "grant_type": "client_credentials", "client_id": client_id, "client_secret": secret})
    r.raise_for_status()
    return r.json()["access_token"]


def limits(field):
    """The items of a RateLimit field: {name: (r, t)}."""
    out = {}
    for item in field.split(","):
        name, _, params = item.strip().partition(";")
        values = dict(p.split("=", 1) for p in params.split(";") if "=" in p)
        out[name.strip('"')] = (int(values.get("r", "1")), int(values.get("t", "0")))
    return out


def main():
    base, client_id, secret, most = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + token(base, client_id, secret)
    admitted = refused = 0
    longest = 0.0
    stopped = "done"
    for _ in range(most):
        r = session.get(base + "/load/v2.0/total-load", params={"dateFrom": "01/01/2024", "dateTo": "01/01/2024"})
        if r.status_code == 200:
            admitted += 1
        elif r.status_code == 429:
            refused += 1
        else:
            r.raise_for_status()
        wait = max([t for (left, t) in limits(r.headers.get("RateLimit", "")).values() if left == 0] or [0])
        if wait > 60:
            stopped = "quota"
            break
        longest = max(longest, wait)
        time.sleep(wait)
    print(json.dumps({"admitted": admitted, "refused": refused, "longest_wait": longest, "stopped": stopped}))


if __name__ == "__main__":
    main()
