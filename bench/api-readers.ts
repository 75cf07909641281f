/**
 * A child process of the readers bench: `readers` clients reading the recorder's API in a loop (the list,
 * then one trace) until stdin closes; prints the number of reads answered. Its own process, so that its
 * event loop is not the one measuring the stream's arrival times.
 *   npx tsx bench/api-readers.ts <api base url> <readers>
 */
const [api, count] = [process.argv[2] ?? "", Number(process.argv[3] ?? 50)];
let reading = true;
let reads = 0;
process.stdin.on("end", () => (reading = false));
process.stdin.resume();

async function reader(): Promise<void> {
  while (reading) {
    const list = (await (await fetch(`${api}/api/traces?limit=50`)).json()) as { traces: { id: string }[] };
    const id = list.traces[reads % Math.max(1, list.traces.length)]?.id;
    if (id) await (await fetch(`${api}/api/traces/${id}`)).arrayBuffer();
    reads += 2;
  }
}

await Promise.all(Array.from({ length: count }, reader));
process.stdout.write(`${reads}\n`);
export {};
