/** Small state badges: text first (colour only adds to it), unknown values shown as they are. */
import { CREDENTIAL_STATE_LABEL, TRAINING_STATE_LABEL, type CredentialState, type TrainingState } from '../app/compliance.ts';

export function CredentialBadge({ state }: { state: CredentialState }) {
  return <span className={`badge cred-${state}`}>{CREDENTIAL_STATE_LABEL[state]}</span>;
}

export function TrainingBadge({ state }: { state: TrainingState }) {
  return <span className={`badge train-${state}`}>{TRAINING_STATE_LABEL[state]}</span>;
}

/** A status value from the API, shown as it is. */
export function StatusText({ value }: { value: string }) {
  return <span className={`status status-${value.toLowerCase().replace(/[^a-z]/g, '') || 'none'}`}>{value || '(none)'}</span>;
}
