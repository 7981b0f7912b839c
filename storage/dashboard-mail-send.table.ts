/** One dashboard mail sent (or being sent) to an address, counted against that address's hourly limit. */
export interface DashboardMailSendTable {
  id: string;
  /** The recipient, lower case. */
  recipient: string;
  /** What the mail was: `verify_email`, `reset_password`, `invitation`... */
  kind: string;
  sent_at: string;
}
