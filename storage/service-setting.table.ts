export interface ServiceSettingTable {
  name: string;
  value: string;
  created_at: string;
}
