package catalog

import (
	"time"

	"github.com/energyapi/energyapi/internal/dataset"
	"github.com/energyapi/energyapi/internal/energy"
)

// The days from which datasets that were hourly come in quarter hours
// (catalogue.md 5.3, issue 34 item 3): each declared once here, read by
// the descriptors that change, and from them by the machinery and the
// demo (dataset.GrainChange). docs/data.md lists them.

// generationQuarterHours: actual and renewable generation in quarter
// hours from 1 January 2025.
var generationQuarterHours = dataset.GrainChange{
	From:  energy.Date{Year: 2025, Month: time.January, Day: 1},
	Grain: dataset.QuarterHour,
	Source: dataset.Source{
		Ref: liveClient + "a grid dashboard's Terna fetch (geothermal actual generation and total load, history from 1 January 2025), " +
			"which reads 15-minute values labelled by the quarter hour's start and notes that the values named GWh are the average power in GW; " +
			"a data vendor's description of the Download Center file (\"Terna Italy Power Generation Actual and Renewable QuarterHourly\", a 2025 sample)",
		Confidence: "M",
		Guess: "The day: the live client reads nothing before 1 January 2025, the day the dispatching reform (TIDE) took effect, so the change may be earlier. " +
			"Renewable generation follows actual generation (the same Download Center file; no live client reads it). " +
			"The demo's quarter hours each carry their hour's mean power: the model is hourly.",
	},
}

// marketQuarterHours: the Market area's results per session in quarter
// hours from 1 October 2025, the day the Italian markets' time unit
// became 15 minutes.
var marketQuarterHours = dataset.GrainChange{
	From:  energy.Date{Year: 2025, Month: time.October, Day: 1},
	Grain: dataset.QuarterHour,
	Source: dataset.Source{
		Ref: "GME's note of 29 September 2025, as quoted in the press (https://www.cityrumors.it/economia/bolletta-luce-cosa-cambia-con-la-quotazione-al-quarto-dora-in-vigore-da-ottobre.html): " +
			"products with a 15-minute market time unit on the day-ahead market for delivery from 1 October 2025 (first planned for 12 June 2025); " +
			"http://uivco.vb.it/blog/fisco-e-agevolazioni-5/post/in-vigore-il-nuovo-modello-di-mercato-elettrico-con-prezzi-ogni-15-minuti-5820: " +
			"the 15-minute MTU in force from 1 October 2025, aligning day-ahead, intraday and balancing prices",
		Confidence: "M",
		Guess: "That the Market pages' dispatching (MSD1-MSD6) and balancing (MB) results follow the day-ahead market's time unit on the same day: " +
			"the pages (market/Prices, Costs, Quantity, Accepted_Offers, Submitted_Offers) say nothing of it and their examples predate it (L). " +
			"An offer count per quarter hour, not per hour.",
	},
}
