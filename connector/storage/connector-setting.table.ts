/** Settings the connector keeps for itself (one row per name). */

export interface ConnectorSettingTable {
  key: string;
  value: string;
}
