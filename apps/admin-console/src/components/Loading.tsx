export function Loading({ label }: { readonly label: string }) {
  return (
    <p className="loading" role="status" aria-busy="true">
      {label}
    </p>
  );
}
