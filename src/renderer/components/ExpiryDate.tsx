/** An expiry date with how far it is: "Dec 9, 2026 · expires in 12 days" (the date alone asks the reader to count). */
import { formatDate } from '../app/format.ts';
import { expiryWords } from '../app/expiry-words.ts';

export function ExpiryDate({ iso, today }: { iso: string; today: string }) {
  const words = expiryWords(iso, today);
  return (
    <>
      {formatDate(iso)}
      {words && <span className="muted"> · {words}</span>}
    </>
  );
}
