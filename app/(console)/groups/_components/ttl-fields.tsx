"use client";
import { useState } from "react";
import { Field } from "@/components/ui/field";

const UNITS = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 } as const;
type Unit = keyof typeof UNITS;

function initialUnit(seconds: number): Unit {
  return seconds % 86_400 === 0 ? "days" : seconds % 3_600 === 0 ? "hours" : seconds % 60 === 0 ? "minutes" : "seconds";
}

/** A TTL typed as an amount and a unit, and the sliding setting, starting from the given values. */
export function useTtlFields(initialSeconds: number, initialSlide: boolean) {
  const [unit, setUnit] = useState<Unit>(initialUnit(initialSeconds));
  const [amount, setAmount] = useState(String(initialSeconds / UNITS[initialUnit(initialSeconds)]));
  const [slide, setSlide] = useState(initialSlide);
  return { unit, setUnit, amount, setAmount, slide, setSlide, ttlSeconds: Math.round(Number(amount) * UNITS[unit]) };
}

/** The TTL and sliding inputs of the TTL editor and of the new-group form. */
export function TtlFields({ label, fields, errors }: { label: string; fields: ReturnType<typeof useTtlFields>; errors?: string[] }) {
  return (
    <>
      <Field label={label} errors={errors}>
        <span className="actions">
          <input name="ttl" type="number" min={1} value={fields.amount} onChange={(e) => fields.setAmount(e.target.value)} style={{ width: "8rem" }} />
          <select name="unit" value={fields.unit} onChange={(e) => fields.setUnit(e.target.value as Unit)} aria-label="Unit">
            {Object.keys(UNITS).map((u) => (
              <option key={u}>{u}</option>
            ))}
          </select>
        </span>
      </Field>
      <label className="field">
        <span>Sliding window</span>
        <span className="actions">
          <input name="slide" type="checkbox" checked={fields.slide} onChange={(e) => fields.setSlide(e.target.checked)} />
          <span className="small">a duplicate restarts the window</span>
        </span>
      </label>
    </>
  );
}
