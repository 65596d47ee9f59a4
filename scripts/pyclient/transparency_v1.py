#!/usr/bin/env python3
"""A client of the transparency v1.0 paths, written from the v2.0 pages'
"Differenze rispetto alla versione 1.0" sections and the v1.0 client code
that still calls them (docs/datasets-v1.md, "The transparency v1.0 paths"):
the legacy token path, Bearer token, dateFrom/dateTo dd/mm/yyyy, repeated
filter keys, camelCase arrays and capitalised fields.

Usage: transparency_v1.py BASE_URL CLIENT_ID CLIENT_SECRET

It reads every v1.0 path for the week of 2 to 8 January 2023 (installed
capacity for 2023), checks each record's fields and each answer's
Deprecation, Sunset and Link headers, and prints "ok PATH RECORDS" per path.
"""
import email.utils
import re
import sys

import requests

# path: (array, fields, extra parameters)
PATHS = {
    "gettotalload": ("totalLoad", {"Date", "Total_Load_MW", "Forecast_Total_Load_MW", "Bidding_Zone"}, {"biddingZone": ["North", "Italy"]}),
    "getmarketload": ("marketLoad", {"Date", "Market_Load_MW", "Forecast_Market_Load_MW", "Bidding_Zone"}, {}),
    "getpeakvalleyload": ("peakValleyLoad", {"Date", "Peak_Load_GW", "Valley_Load_GW"}, {}),
    "getpeakvalleyloaddetails": ("peakValleyLoadDetails", {"Date", "Peak_Load_GW", "Valley_Load_GW", "Primary_Source", "Type"}, {}),
    "getactualgeneration": ("actualGeneration", {"Date", "Actual_Generation_GWh", "Primary_Source"}, {"type": ["Wind", "Hydro"]}),
    "getrenewablegeneration": ("renewableGeneration", {"Date", "Renewable_Generation_GWh", "Energy_Source"}, {"type": ["Hydro", "Wind"]}),
    "getenergybalance": ("energyBalance", {"Date", "Energy_Balance_GWh", "Energy_Source"}, {}),
    "getinstalledcapacity": ("installedCapacity", {"Year", "Type", "Installed_Capacity_GWh"}, {}),
}


def main():
    base, client_id, secret = sys.argv[1:4]
    token = requests.post(base + "/transparency/oauth/accessToken", data={
        "client_id": client_id, "client_secret": secret, "grant_type": "client_credentials",
    }, headers={"Content-Type": "application/x-www-form-urlencoded"}, timeout=30)
    token.raise_for_status()
    headers = {"Authorization": "Bearer " + token.json()["access_token"]}
    failed = False
    for resource, (array, fields, extra) in PATHS.items():
        path = "/transparency/v1.0/" + resource
        params = dict(extra)
        if resource == "getinstalledcapacity":
            params["year"] = "2023"
        else:
            params.update({"dateFrom": "02/01/2023", "dateTo": "08/01/2023"})
        r = requests.get(base + path, params=params, headers=headers, timeout=60)
        r.raise_for_status()
        body = r.json()
        records = body[array]
        problems = []
        if not records:
            problems.append("no records")
        for rec in records:
            if set(rec) != fields:
                problems.append("fields %s, want %s" % (sorted(rec), sorted(fields)))
                break
            if "Date" in rec and not ("2023-01-02" <= rec["Date"][:10] <= "2023-01-08"):
                problems.append("Date %s outside the week" % rec["Date"])
                break
        if not body["result"]["message"].startswith("Operation completed for the following request: {"):
            problems.append("message %r" % body["result"]["message"])
        if not re.fullmatch(r"@[0-9]+", r.headers.get("Deprecation", "")):
            problems.append("Deprecation %r" % r.headers.get("Deprecation"))
        if email.utils.parsedate_to_datetime(r.headers.get("Sunset", "x, 1 Jan 1970 00:00:00 GMT")).year < 2024:
            problems.append("Sunset %r" % r.headers.get("Sunset"))
        if 'rel="successor-version"' not in r.headers.get("Link", ""):
            problems.append("Link %r" % r.headers.get("Link"))
        if problems:
            failed = True
            print("FAIL", path, "; ".join(problems))
        else:
            print("ok", path, len(records))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
