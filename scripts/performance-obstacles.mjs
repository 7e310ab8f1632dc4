// What stands in the way of a goal the report shows as not met (issue 14: "the figure reached and what
// stands in the way"). Written from profiles and plans taken on the 1M-product catalogues; each entry
// names the mechanism, not a figure of one run (the figures are in the section above it). A goal
// without an entry here that is not met shows in the report as having none written: add one.

/** part → [{ goal: RegExp on the goal's text, obstacle }] */
export const OBSTACLES = {
  api: [
    {
      goal: /^every query shape class p99.*\(search engine sqlite-fts5\)/,
      obstacle:
        'Each query is answered from SQLite’s indexes inside one read snapshot, and three kinds of shape must touch a large part of the catalogue whatever the plan: a 1–2-character prefix stands for hundreds of index terms, which FTS5 merges into one list of up to every product before the first row; `includeAggregations=true` counts the whole match set (decisions.md), up to 1M rows, on every request; and a sort on another column than relevance under a filter its index does not hold (`updatedAfter` with another sort, `displayOnWeb` for a bound channel) tests row after row until `from + size` rows have passed, up to 10,000 deep. With fewer than 100 runs in a class its p99 is its slowest run, so one such query fails every class it belongs to. What meets them is a structure precomputed for those shapes, not another SQL plan: the bitmap engine (`SEARCH_ENGINE=bitmap`, issue 28), whose own figures are in the run made with `BENCH_SEARCH_ENGINE=bitmap`.',
    },
    {
      goal: /^Zipf mix.*\(search engine sqlite-fts5\)/,
      obstacle:
        'The mix draws from the same generator, so its tail holds the shapes of the goal above: at c32, queries of a quarter of a second to two seconds hold the two search workers (one per core) while the baseline returns every body at once; the page cache serves only the repeated head of the Zipf curve. It follows the shape goal.',
    },
    {
      goal: /^includeAggregations=true with no q.*\(search engine sqlite-fts5\)/,
      obstacle:
        'The whole catalogue’s counts are precomputed (facet_counts), but any filter makes the match set another one, and it is counted row by row in SQL, up to 1M rows per request: the shape goal’s second kind. The bitmap engine’s counts are the structure that meets it.',
    },
    {
      goal: /^API RSS.*\(search engine sqlite-fts5\)/,
      obstacle:
        'Three V8 isolates (the main thread and two search workers, their young generations now held small), each worker’s SQLite page cache and the search page cache (`SEARCH_PAGE_CACHE_MB`), and the mapped database. The peak under the mix varies by some 100 MB from run to run with what the slow shapes allocate.',
    },
  ],
  'api-bitmap': [
    {
      goal: /^Zipf mix/,
      obstacle:
        'The bitmap engine answers in the API’s main thread, the thread that also terminates TLS, checks the token, reads the page’s documents from the catalogue file and writes the body; the precomputed-body baseline does only the first two and the last. At c32 on two cores that one thread is the bottleneck, where the FTS5 engine spreads its searches over two worker threads (and reaches 0.02× here only because its slow shapes hold both). The engine’s own share of a query is small (in-process, 1,000 generated queries at 1M: p50 0.5 ms, p90 3.6 ms); reading and rendering the page’s documents, up to 100 of them, is most of the rest. What would lift it: searches answered in worker threads over one index in shared memory (CRoaring’s frozen serialisation in a SharedArrayBuffer for the bitmaps, the rank and column arrays as typed arrays over SharedArrayBuffers), so that both cores serve requests and the index is not built once per worker.',
    },
    {
      goal: /^includeAggregations=true with no q/,
      obstacle:
        'Counting is no longer what costs: a match set that is most of the catalogue is counted as the catalogue’s counts less its complement’s, a small one product by product (`count-facets.ts`). Without `q` the matches are a large part of the catalogue under any filter, so the page beside the counts is the rest: four facets’ counts turned into ordered objects (807 values at 1M, 785 of them brand names), the documents of the page read and rendered, in the API’s one thread; and the class’s p99 carries the process’s pauses (V8’s major collections run every few dozen requests while the mix and the shapes allocate bodies of up to 150 KB).',
    },
    {
      goal: /^search ready after a restart, the index rebuilt/,
      obstacle:
        'Nothing of the index is kept between starts: every start reads each of the 1M records from the catalogue file in parts of 500 and folds and tokenises every text column into the posting lists, all in the API’s main thread, whose young generation is held to 8 MB for the memory goal (`--max-semi-space-size=8`, as `pnpm start` runs it), so the build’s short-lived objects are collected often. A persisted snapshot (the goal below) removes the rebuild; a build split across worker threads would shorten it.',
    },
    {
      goal: /^search ready after a restart from a persisted index snapshot/,
      obstacle:
        'Not built: the index lives only in the process’s memory. What it needs: the posting lists (CRoaring’s portable serialisation), the token dictionary’s and names’ arenas, the interned columns, the rank and sort arrays and the filter bitmaps written to one file beside the catalogue with the feed sequence they reflect and a checksum, written after a build and then periodically; at start the file is read back only when its checksum holds and the feed still reaches back to its sequence, and the feed after it is applied; anything else, and the index is rebuilt as today.',
    },
  ],
  'postgres-bitmap': [
    {
      goal: /every query type p99 ≤ 50 ms at c1/,
      obstacle:
        'Not the queries’ own time: the types over the bound answer in about 1 ms at p50, and a p99 of 40 runs is their slowest run, so one pause of the process that holds the 1M-product index and its replica file (a V8 major collection, the replica applying the feed beside the search) fails a type. The FTS5 replica’s slowest type is over the bound too, for its own reasons (the PostgreSQL part above).',
    },
    {
      goal: /every query type p99 ≤ 100 ms at c8/,
      obstacle:
        'The bitmap engine answers in the thread that calls it, so the bench’s eight concurrent callers are served one after another and a c8 p99 is close to eight times the slowest queries’ own time; the slowest are those whose match set is large and that count facets over it or rank many text matches. The FTS5 replica answers in two search workers. What would meet it is the same as for the API’s mix: searches in worker threads over one index in shared memory.',
    },
    {
      goal: /^keyset sync page p99/,
      obstacle:
        'The page itself is cheap (its p50 is under 1 ms: a rank lookup in the sort order and 100 documents read from the replica file); the p99 of 400 runs carries the pauses of the process that holds the 1M-product index, V8’s major collections among them.',
    },
    {
      goal: /^search ready after a restart, the replica and the index rebuilt/,
      obstacle:
        'At every start the replica file is removed and loaded again from one snapshot of PostgreSQL, as the FTS5 replica’s first build is (238 s in the FTS5 run), so that the file and the in-memory index hold the same state; the index is built beside it from the same parts. The load of the replica file is most of it. A persisted index snapshot written with the replica’s applied sequence would let a restart reopen both and follow the feed from there.',
    },
    {
      goal: /^bulk import into PostgreSQL/,
      obstacle:
        'Not the search engine’s: the import writes the records to PostgreSQL the same way whatever engine the instances search with.',
    },
  ],
  sync: [
    {
      goal: /full pass to SQLite ≥/,
      obstacle:
        'A pass runs at the pace of the slower of two things that overlap: the server’s next page (one request at a time, spec 8: the floor) and the sink’s write of the page before it. The SQLite sink (each product’s JSON text upserted by its text id, in the runner’s one thread beside the parsing of the responses) runs at 0.5–0.6× the floor in every run, so the goal holds where the floor is above some 35,000 products/s (24,810/s over a 40,960/s floor in the report before this one) and not on a slower machine or a busier server; here the floor was 31,130/s. The memory settings that hold the runner under 200 MB cost some of it: serving every allocation of 128 KiB or more from its own mapping (each response and output buffer is mapped and unmapped) took this machine from 0.56× to 0.51× the floor (0.98× to 0.85× for NDJSON). Writing in a worker thread, so that the parsing and the writing use two cores, is the next step.',
    },
    {
      goal: /peak RSS ≤/,
      obstacle:
        'What the peak is made of (from /proc/<pid>/smaps and V8’s heap statistics during a 1M pass): the Node binary’s mapped code, about 58 MB; glibc’s heap holding the TLS and HTTP client’s and the sink’s buffers, 70–100 MB and varying from run to run with fragmentation; the V8 heap, 30–50 MB with the young generation held to 8 MB (the runner re-executes itself with `--max-semi-space-size=4` and glibc’s mmap threshold at 128 KiB; 365 MB before); and the set of ids the pass has seen (16–43 bytes a product, to count a product served twice once, spec 4.4 step 6), which grows with the catalogue. Exact counting in fixed memory would need that set on disk.',
    },
  ],
  webhooks: [
    {
      goal: /^change-to-delivery p99 ≤ 1 s \(healthy receiver, one subscription\)/,
      obstacle:
        'Met at 5e27708 on a machine whose writer made 1,494 writes a second flat out (p99 923 ms, the late deliveries all in one stall of about a second near the minute’s end); not met at dbf4276 on a slower machine of the same kind (1,108 flat out: p99 4.6 s). The deliveries keep up with the writes; the p99 follows how much of two cores the writer, the API, the sender and the receiver leave each other. Where the writer’s 1,000 writes a second is 90 % of what it can do flat out, the deliveries’ CPU comes off its pace (739 a second beside them at dbf4276) and the queue falls behind in stretches. The lock’s hand-over is not it: a writer that finds the lock taken sleeps in SQLite’s busy handler for milliseconds, and its writes took a tenth of a millisecond longer. What would take the deliveries off the catalogue’s lock altogether is an outbox file of its own (its own write lock, the change feed read from the catalogue’s file). PostgreSQL locks rows one by one and is not paced.',
    },
    {
      goal: /^change-to-delivery p99 ≤ 1 s \(healthy receiver, 10 subscriptions\)/,
      obstacle:
        'Throughput first: 1,000 writes a second to 10 subscriptions ask for some 10,000 signed HTTPS requests a second, and the API’s own sender and the bench receiver, with nothing else running, made 10,528 a second using both cores (the ceiling measured first in this run, 1.06× what the writer asked; 6,100–15,400 across runs on machines of this kind). Beside the writer and the outbox one instance delivered 2,566 events a second over the writer’s minute and the drain (173.5 s), so the queue grew for the whole minute and the p99 is the time the last events waited: while the catalogue is written the outbox holds the one write lock at most 15 % of the time, the writes goal’s price. What would lift it: an outbox file of its own (its own write lock), several instances on PostgreSQL (the outbox already shares claims out), a machine with more cores than the writer, the API and the receiver need together, or fewer requests per event (batching events into one message would change the Standard Webhooks shape the issue asks for: the issue’s author to decide).',
    },
  ],
  load: [
    {
      goal: /≥ 10,000 products\/s/,
      obstacle:
        'Where an empty-catalogue load of 1M products spent its 163 s (phases timed inside loadEmptyCatalogue on the machine of the load part, 2026-11-26): the rows about 49 s (validation against the contract’s schema included), the secondary indexes 19 s, the full-text index 11 s, facet counts and the change feed 10 s, the stored search documents 50 s (each product read back with its relations and rendered to its external JSON), the commit and WAL checkpoint 25 s (every page is written twice, to the WAL and then into the database file). The two largest are the next steps: render each document from its input during the insert instead of reading it back, and load an empty catalogue under a rollback journal so that its pages are written once.',
    },
  ],
};

/** The obstacle written for `goal` of `part`, or null. */
export function obstacleFor(part, goal) {
  return OBSTACLES[part]?.find((entry) => entry.goal.test(goal))?.obstacle ?? null;
}
