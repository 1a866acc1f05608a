/**
 * glTF 1.0 animations as 2.0 has them. A 1.0 animation names its accessors in `parameters`
 * (`"TIME": "accessor_12"`), its samplers (a dictionary) take their `input` and `output` by
 * parameter name, and a channel's target names its node by id; 2.0 samplers are a list holding
 * accessor indices and a channel's target holds a node index.
 *
 * @module
 */
import type { Json } from "./checker.ts";
import { commonFields, type Gltf1Reader, pointer } from "./gltf1_reader.ts";

/** The animations of a 1.0 file, upgraded. */
export function upgradeAnimations(r: Gltf1Reader): Json[] {
  return r.items("animations").map(([id, item], a) => {
    const path = `/animations/${pointer(id)}`;
    const parameters = r.optionalObject(item, "parameters", path) ?? {};
    const samplerDict = r.optionalObject(item, "samplers", path) ?? {};
    const samplerIndex = new Map<string, number>();
    const samplers = Object.entries(samplerDict).map(([samplerId, value], i) => {
      const spath = `${path}/samplers/${pointer(samplerId)}`;
      const sampler = r.object(value, spath);
      samplerIndex.set(samplerId, i);
      r.paths.moved(`/animations/${a}/samplers/${i}`, spath);
      const accessorOf = (key: string) => {
        const name = sampler[key];
        const at = `${spath}/${key}`;
        if (typeof name !== "string" || !Object.hasOwn(parameters, name)) {
          r.fail(at, `the name of one of ${path}/parameters`, name);
        }
        return r.ref("accessors", parameters[name], `${path}/parameters/${pointer(name)}`);
      };
      const out: Json = { input: accessorOf("input"), output: accessorOf("output") };
      if (sampler.interpolation !== undefined && sampler.interpolation !== null) {
        out.interpolation = sampler.interpolation;
      }
      return out;
    });
    const channels = r.array(item, "channels", path).map((value, k) => {
      const cpath = `${path}/channels/${k}`;
      const channel = r.object(value, cpath);
      const sampler = samplerIndex.get(channel.sampler as string);
      if (typeof channel.sampler !== "string" || sampler === undefined) {
        r.fail(`${cpath}/sampler`, `the id of one of ${path}/samplers`, channel.sampler);
      }
      const target = r.object(channel.target, `${cpath}/target`);
      r.paths.moved(`/animations/${a}/channels/${k}/target/node`, `${cpath}/target/id`);
      return {
        sampler,
        target: { node: r.ref("nodes", target.id, `${cpath}/target/id`), path: target.path },
      };
    });
    return { ...commonFields(id, item), samplers, channels };
  });
}
