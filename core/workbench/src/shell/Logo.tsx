/** The product mark: a decision tree in a rounded square. */
export function Logo(props: { size?: number }) {
  const s = props.size ?? 24;
  return (
    <svg width={s} height={s} viewBox="0 0 32 32" aria-hidden="true" className="dc-logo">
      <rect width="32" height="32" rx="7" fill="#2d72d2" />
      <circle cx="16" cy="8" r="3.2" fill="#fff" />
      <circle cx="8.5" cy="23" r="3.2" fill="#fff" />
      <circle cx="23.5" cy="23" r="3.2" fill="#9fe2bf" />
      <path d="M16 11v4M16 15l-7.5 5M16 15l7.5 5" stroke="#fff" strokeWidth="2" strokeLinecap="round" fill="none" />
    </svg>
  );
}
