/** A labelled whole-number input for "within N days" windows. */
export function DaysInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (days: number) => void;
}) {
  return (
    <label className="days-input">
      {label}
      <input
        type="number"
        min={0}
        max={3650}
        value={value}
        onChange={(e) => {
          const n = Number(e.target.value);
          if (Number.isInteger(n) && n >= 0 && n <= 3650) onChange(n);
        }}
      />
    </label>
  );
}
