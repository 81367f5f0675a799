/** A schema change written out for both dialects side by side; `version` orders them. */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}
