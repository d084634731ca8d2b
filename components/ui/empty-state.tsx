import type { ReactNode } from "react";

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty" data-testid="empty-state">
      <strong>{title}</strong>
      {children ? <div className="small">{children}</div> : null}
    </div>
  );
}
