/** One request's weight, sent at `at` (epoch ms). */
export interface Spending {
  at: number;
  weight: number;
}

/**
 * What the fleet sent each venue in the last minute, whichever replica sent it: a replica that
 * takes the ingestion lease starts its request budget from it, so a handover never lets the fleet
 * spend a venue's budget twice in one minute.
 */
export interface SpendingLedger {
  /** Records a request's weight (a lost record costs accuracy, never a request). */
  spend(venue: string, spending: Spending): Promise<void>;
  /** What was spent on `venue` since `since`, oldest first. */
  recent(venue: string, since: number): Promise<Spending[]>;
}
