/** Small state badges: text first (colour only adds to it), unknown values shown as they are. */
import {
  CREDENTIAL_STATE_LABEL,
  TRAINING_STATE_LABEL,
  type CredentialState,
  type TrainingState,
} from '../app/compliance.ts';

export function CredentialBadge({ state }: { state: CredentialState }) {
  return <span className={`badge cred-${state}`}>{CREDENTIAL_STATE_LABEL[state]}</span>;
}

export function TrainingBadge({ state }: { state: TrainingState }) {
  return <span className={`badge train-${state}`}>{TRAINING_STATE_LABEL[state]}</span>;
}

/** A status value from the API in its own words, written as a label ("active" → "Active"); `meaning` is its tooltip. */
export function StatusText({ value, meaning }: { value: string; meaning?: string | undefined }) {
  const shown = value.trim() ? value.trim().charAt(0).toUpperCase() + value.trim().slice(1) : '(none)';
  const className = `status status-${value.toLowerCase().replace(/[^a-z]/g, '') || 'none'}`;
  return (
    <span className={className} title={meaning}>
      {shown}
    </span>
  );
}
