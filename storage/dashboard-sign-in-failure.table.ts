/** One failed sign-in: the email asked for (known or not, lower case) and the client's address. */
export interface DashboardSignInFailureTable {
  id: string;
  email: string;
  address: string;
  failed_at: string;
}
