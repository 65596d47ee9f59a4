#!/usr/bin/env python3
"""A client of the Energy Data API family, written the way its Python users
write them, run against a server to check every time-series endpoint.

It takes a token with a form POST to the legacy token path (as client P
does), lists the datasets in GET /catalog, and for every time series (a
granularity finer than a month) fetches each day range given with Bearer
calls, reads body[<array name>] and parses `date` as Europe/Rome wall time
using `date_offset`, checking that the offset is the one Europe/Rome has at
that moment and that a clock-change day has as many distinct instants as
hours (23 in spring, 25 in autumn). It prints "ok NAME RECORDS" per dataset
and exits non-zero on the first problem.

Usage: check.py BASE_URL CLIENT_ID CLIENT_SECRET dd/mm/yyyy-dd/mm/yyyy...
"""
import datetime as dt
import sys
import time
from zoneinfo import ZoneInfo

import requests

ROME = ZoneInfo("Europe/Rome")
TIME_SERIES = {"quarter-hour", "hour", "day"}


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


class Client:
    def __init__(self, base, client_id, secret):
        self.base = base.rstrip("/")
        self.client_id, self.secret = client_id, secret
        self.token, self.expires = None, 0.0

    def _token(self):
        if self.token and time.monotonic() < self.expires - 5:
            return self.token
        r = requests.post(
            self.base + "/transparency/oauth/accessToken",
            data={"client_id": self.client_id, "client_secret": self.secret, "grant_type": "client_credentials"},
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            timeout=30,
        )
        r.raise_for_status()
        body = r.json()
        if not isinstance(body.get("expires_in"), int):
            fail("expires_in is not a JSON integer: %r" % body.get("expires_in"))
        self.token, self.expires = body["access_token"], time.monotonic() + body["expires_in"]
        return self.token

    def get(self, path, params):
        r = requests.get(
            self.base + path,
            params=params,
            headers={"accept": "application/json", "Authorization": "Bearer " + self._token()},
            timeout=60,
        )
        r.raise_for_status()
        return r.json()


def parse_offset(s):
    sign = 1 if s[0] == "+" else -1
    hh, mm = s[1:].split(":")
    return dt.timedelta(hours=sign * int(hh), minutes=sign * int(mm))


def moment(rec, where):
    """Returns the record's UTC instant from date and date_offset, checking
    them against Europe/Rome."""
    for k, v in rec.items():
        if not isinstance(v, str):
            fail("%s: field %s is %r, not a JSON string" % (where, k, v))
    if rec.get("date_tz") != "Europe/Rome":
        fail("%s: date_tz %r" % (where, rec.get("date_tz")))
    wall = dt.datetime.strptime(rec["date"], "%Y-%m-%d %H:%M:%S")
    off = parse_offset(rec["date_offset"])
    utc = (wall - off).replace(tzinfo=dt.timezone.utc)
    local = utc.astimezone(ROME)
    if local.replace(tzinfo=None) != wall or local.utcoffset() != off:
        fail("%s: %s %s is not a Europe/Rome wall time and offset (zoneinfo says %s)" % (where, rec["date"], rec["date_offset"], local.isoformat()))
    return utc


def check(client, ds, ranges):
    n = 0
    for rng in ranges:
        date_from, date_to = rng.split("-")
        body = client.get(ds["path"], {"dateFrom": date_from, "dateTo": date_to})
        if "result" not in body:
            fail("%s: no result" % ds["name"])
        rest = [k for k in body if k != "result"]
        if rest != [ds["array"]]:
            fail("%s: keys after result %r, want [%r]" % (ds["name"], rest, ds["array"]))
        recs = body[ds["array"]]
        if not isinstance(recs, list):
            fail("%s: %s is not a list" % (ds["name"], ds["array"]))
        per_day = {}
        prev = None
        for i, rec in enumerate(recs):
            at = moment(rec, "%s %s record %d" % (ds["name"], rng, i))
            if prev is not None and at < prev:
                fail("%s: record %d at %s comes before the one at %s" % (ds["name"], i, at, prev))
            prev = at
            per_day.setdefault(at.astimezone(ROME).date(), set()).add(at)
        steps = {"quarter-hour": 4, "hour": 1}.get(ds["granularity"])
        for day, instants in per_day.items():
            start = dt.datetime(day.year, day.month, day.day, tzinfo=ROME)
            nxt = day + dt.timedelta(days=1)
            end = dt.datetime(nxt.year, nxt.month, nxt.day, tzinfo=ROME)
            # Aware datetimes of one zone subtract as wall times: go through UTC.
            hours = round((end.astimezone(dt.timezone.utc) - start.astimezone(dt.timezone.utc)).total_seconds() / 3600)
            # A full series has every slot of the day; sparse ones (a
            # day's peak and valley) are not counted.
            if steps and len(instants) > 20 * steps and len(instants) != hours * steps:
                fail("%s: %s has %d distinct instants, want %d (%d hours)" % (ds["name"], day, len(instants), hours * steps, hours))
        n += len(recs)
    if n == 0:
        fail("%s: no records in %s" % (ds["name"], ranges))
    print("ok %s %d" % (ds["name"], n))


def main(argv):
    if len(argv) < 5:
        print(__doc__)
        return 2
    base, client_id, secret, ranges = argv[1], argv[2], argv[3], argv[4:]
    client = Client(base, client_id, secret)
    cat = requests.get(base.rstrip("/") + "/catalog", timeout=30)
    cat.raise_for_status()
    for ds in cat.json()["datasets"]:
        # The v2.0 time series: the v1.0 areas name their moments
        # reference_date or market_date and their demo data cover other days.
        if ds["granularity"] not in TIME_SERIES or "/v2.0/" not in ds["path"]:
            continue
        check(client, ds, ranges)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
