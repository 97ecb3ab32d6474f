// Business days in India's calendar (ADR 0017), pure: the shipping policy's business days are
// Monday to Saturday, excluding public holidays. The holidays are the Government of India's
// gazetted holidays (DoPT's list for central government offices in Delhi): every year the three
// national holidays and Christmas by their fixed dates, plus each year's list below. Days are
// counted from today in India's time zone (IST, UTC+5:30, no daylight saving), whatever the
// server's own zone: today never counts, the next business day is day 1.

/** A calendar date, "2026-11-26". */
export type IsoDate = string;

const IST_OFFSET_MS = 330 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Republic Day, Independence Day, Gandhi Jayanti and Christmas: the same date every year. */
export const FIXED_HOLIDAYS: Record<string, string> = {
  "01-26": "Republic Day",
  "08-15": "Independence Day",
  "10-02": "Mahatma Gandhi's Birthday",
  "12-25": "Christmas Day",
};

/**
 * The gazetted holidays whose dates move (lunar calendars, Easter), per year, as DoPT published
 * them. 2026: its order for 2026 (17 holidays). 2027: only Good Friday (Easter's date is
 * arithmetic) until DoPT's order for 2027 is added here; a year not listed counts the fixed
 * holidays alone.
 */
export const GAZETTED_HOLIDAYS: Record<string, Record<IsoDate, string>> = {
  "2026": {
    "2026-03-04": "Holi",
    "2026-03-21": "Id-ul-Fitr",
    "2026-03-26": "Ram Navami",
    "2026-03-31": "Mahavir Jayanti",
    "2026-04-03": "Good Friday",
    "2026-05-01": "Buddha Purnima",
    "2026-05-27": "Id-ul-Zuha (Bakrid)",
    "2026-06-26": "Muharram",
    "2026-08-26": "Milad-un-Nabi",
    "2026-09-04": "Janmashtami",
    "2026-10-20": "Dussehra",
    "2026-11-08": "Diwali",
    "2026-11-24": "Guru Nanak's Birthday",
  },
  "2027": {
    "2027-03-26": "Good Friday",
  },
};

/** The holiday on a date, or null. */
export function holidayOn(date: IsoDate): string | null {
  return FIXED_HOLIDAYS[date.slice(5)] ?? GAZETTED_HOLIDAYS[date.slice(0, 4)]?.[date] ?? null;
}

/** The date it is in India at an instant. */
export function todayInIndia(now: Date): IsoDate {
  return new Date(now.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

function nextDay(date: IsoDate): IsoDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Monday to Saturday, and not a holiday. */
export function isBusinessDay(date: IsoDate): boolean {
  return new Date(`${date}T00:00:00Z`).getUTCDay() !== 0 && holidayOn(date) === null;
}

/** The business day `days` business days after `from` (from itself never counts). */
export function addBusinessDays(from: IsoDate, days: number): IsoDate {
  let date = from;
  for (let left = days; left > 0;) {
    date = nextDay(date);
    if (isBusinessDay(date)) left -= 1;
  }
  return date;
}

/** The days a delivery takes, in business days. */
export interface DeliveryDays {
  min: number;
  max: number;
}

/** The earliest and the latest delivery date of an order placed at `now`. */
export function deliveryWindow(now: Date, days: DeliveryDays): { earliest: IsoDate; latest: IsoDate } {
  const today = todayInIndia(now);
  return { earliest: addBusinessDays(today, days.min), latest: addBusinessDays(today, days.max) };
}

/** A date as an instant: noon in India, the same calendar day in every zone from UTC-6:30 to UTC+11:30. */
export function dateAtNoonInIndia(date: IsoDate): string {
  return new Date(Date.parse(`${date}T12:00:00+05:30`)).toISOString();
}
