// One of the suite's shards: see shard.ts.
import { importShard } from "./shard.ts";

await importShard(import.meta.url);
