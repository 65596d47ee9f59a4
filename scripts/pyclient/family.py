#!/usr/bin/env python3
"""A data team's client of the family's newer endpoints, written from the
pages and live client code (catalogue.md sections 4.1 and 4.2), not from
this server's own description of itself.

For every endpoint it asks a week of January 2024 (or the year 2023 for
yearly statistics, a January 2024 market day for the FCR auctions), reads
body[<array>] by the array name the pages give and each record's fields by
the names the pages give, and prints one line per endpoint:

    ok <path> <records>

or fails with the endpoint, the request and what was missing.

usage: family.py BASE_URL CLIENT_ID CLIENT_SECRET
"""
import re
import sys

import requests

WEEK = {"dateFrom": "08/01/2024", "dateTo": "14/01/2024"}
YEAR = {"year": "2023"}
MSD1 = dict(WEEK, sessionType="MSD1")

# (path, query, array, fields the client reads), as catalogue.md 4.1 and 4.2 give them.
ENDPOINTS = [
    ("/load/v2.0/electrical-energy-in-italy", YEAR, "electrical_energy_in_italy",
     ["year", "month", "demand_GWh"]),
    ("/load/v2.0/electrical-energy-by-type", YEAR, "electrical_energy_by_type",
     ["year", "region", "type", "demand_GWh"]),
    ("/load/v2.0/electrical-energy-by-sector", YEAR, "electrical_energy_by_sector",
     ["year", "region", "province", "sector", "consumption_GWh"]),
    ("/load/v2.0/industry-sector", YEAR, "industry_sector",
     ["year", "region", "province", "activity", "class", "consumption_GWh"]),
    ("/load/v2.0/services-sector", YEAR, "services_sector",
     ["year", "region", "province", "activity", "class", "consumption_GWh"]),
    ("/load/v2.0/total", YEAR, "total",
     ["year", "region", "province", "sector", "activity", "class", "consumption_GWh"]),
    ("/load/v2.0/market", YEAR, "market",
     ["year", "region", "province", "market", "consumption_GWh"]),
    ("/generation/v2.0/renewable-source-capacity", YEAR, "renewable_sources",
     ["year", "capacity_type", "region", "province", "source", "efficient_power_MW"]),
    ("/market/v1.0/aste-fcr", {"marketDate": "10/01/2024"}, "aste_fcr",
     ["date", "session", "zone", "direction", "price", "quantity", "requirement"]),
    ("/market/v1.0/input/rr-requirement", MSD1, "replacement_reserve_requirement",
     ["reference_date", "offset", "zone", "requirement_MW"]),
    ("/fees/v1.0/monthly-summary", WEEK, "monthly_summary",
     ["publication_date", "reference_date", "data_type", "date_tz", "macrozone",
      "zonal_aggregate_unbalance_MWh", "zonal_aggregate_sign", "exchanges_MWh", "foreign_MWh",
      "base_price_EURxMWh", "incentive_component_EURxMWh", "unbalance_price_EURxMWh"]),
    ("/ifees/v1.0/market/commercial-balance-prices", WEEK, "commercial_balance_prices",
     ["publication_date", "date_time", "date_tz", "macrozone", "zone",
      "sell_price_EURxMWh", "buy_price_EURxMWh"]),
    ("/market/v1.0/output/prices", MSD1, "prices",
     ["reference_date", "date_tz", "offset", "zone", "session_type", "type", "direction", "price_eur_MWh"]),
    ("/market/v1.0/output/costs", MSD1, "costs",
     ["reference_date", "date_tz", "offset", "zone", "session_type", "direction", "cost_euro"]),
    ("/market/v1.0/output/accepted-offers", MSD1, "accepted_offers",
     ["reference_date", "date_tz", "offset", "zone", "session_type", "type", "direction", "offer"]),
    ("/market/v1.0/input/submitted-offers", WEEK, "submitted_offers", ["type", "offer"]),
    ("/outages/v1.0/generation-unit-unavailability", WEEK, "unavailability_productive_units",
     ["start_date", "stop_date"]),
    ("/adequacy/v1.0/detail-available-capacity", WEEK, "detail_available_capacity",
     ["market_date", "offset", "unit_code", "available_capacity_MW"]),
    ("/market/v1.0/input/afrr-requirement", MSD1, "secondary_reserve_requirement", ["zone"]),
    ("/market/v1.0/input/forecast-load", WEEK, "forecast_load",
     ["reference_date", "date_tz", "offset", "zone", "session_type", "load_MW"]),
]

# Values the live service writes, as its users parse them.
OUTAGE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$")
AFRR_AREAS = {"Continent", "Sicily", "Sardinia"}


def token(base, client_id, secret):
    r = requests.post(base + "/public-api/access-token",
                      data={"grant_type": "client_credentials", "client_id": client_id,
                            "client_secret": secret}, timeout=30)
    r.raise_for_status()
    return r.json()["access_token"]


def check(path, array, fields, body):
    rows = body[array]  # a KeyError here is what a client of the live service would get
    if not rows:
        raise SystemExit(f"{path}: body[{array!r}] is empty")
    for row in rows:
        for f in fields:
            row[f]
    if path.endswith("generation-unit-unavailability"):
        for row in rows:
            for f in ("start_date", "stop_date"):
                if not OUTAGE_TIME.match(row[f]):
                    raise SystemExit(f"{path}: {f} {row[f]!r} is not yyyy-mm-dd hh:mm")
    if path.endswith("afrr-requirement"):
        zones = {row["zone"] for row in rows}
        if not zones <= AFRR_AREAS:
            raise SystemExit(f"{path}: zones {sorted(zones - AFRR_AREAS)} are not aFRR areas")
    if path.endswith("forecast-load") and any("publication_date" in row for row in rows):
        raise SystemExit(f"{path}: records carry publication_date, which the page's example lacks")
    return len(rows)


def main(base, client_id, secret):
    s = requests.Session()
    s.headers["Authorization"] = "Bearer " + token(base, client_id, secret)
    for path, query, array, fields in ENDPOINTS:
        r = s.get(base + path, params=query, timeout=60)
        if r.status_code != 200 or not r.content:
            raise SystemExit(f"{path} {query}: status {r.status_code}, {len(r.content)} bytes: {r.text[:300]}")
        print("ok", path, check(path, array, fields, r.json()), flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
