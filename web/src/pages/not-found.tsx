export function NotFound({ what = 'page' }: { what?: string }) {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no such {what} here, or it is not yours to see. <a href="/">Back to the start</a>
      </p>
    </section>
  );
}

export function OperatorsOnly() {
  return (
    <section>
      <h1>For operators only</h1>
      <p>
        This page is for administrators of the platform. <a href="/servers">Back to your servers</a>
      </p>
    </section>
  );
}
