/**
 * A batch worker (a Deno worker of the pool): runs jobs one at a time as the pool sends them,
 * forwarding node events and remote cache warnings. Workers keep CPU-bound nodes of different inputs
 * running in parallel.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { type JobMessage, jobServer } from "./job.ts";

const serve = jobServer((message) => self.postMessage(message));
self.onmessage = ({ data }: MessageEvent<JobMessage>) => serve(data);
