/** `CORS_ORIGINS` parsed: trimmed, empty entries dropped. */
export function parseCorsOrigins(value: string | undefined): string[] {
  return (value ?? '').split(',').map((o) => o.trim()).filter(Boolean);
}
