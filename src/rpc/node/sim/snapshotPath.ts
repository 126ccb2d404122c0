import { mkdir, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'

/**
 * Where `sim.saveSnapshot` may write `path`: inside `dir` (a relative path is taken from it), so a
 * request — from any page a browser runs — can replace nothing but snapshot files. Returns the
 * absolute target, or the reason it is refused: a path that names the directory itself, climbs
 * out of it (`..`, an absolute path elsewhere), or whose directory is a symbolic link leading out.
 * A missing directory below `dir` is left for the save to report; `dir` itself is made.
 */
export async function snapshotTarget(dir: string, path: string): Promise<{ target: string } | { refused: string }> {
  const root = resolve(dir)
  const target = resolve(root, path)
  const outside = { refused: `the path is outside the snapshot directory ${root}: over HTTP, snapshot files are written only under it` }
  if (!isBelow(root, target)) return outside
  await mkdir(root, { recursive: true })
  const realRoot = await realpath(root)
  let realParent: string
  try {
    realParent = await realpath(dirname(target))
  } catch {
    return { target }
  }
  // The file itself may be a link: the save renames over it, replacing the link, not its target.
  return realParent === realRoot || isBelow(realRoot, realParent) ? { target } : outside
}

/** Whether `path` lies strictly below `dir` (both absolute). */
function isBelow(dir: string, path: string): boolean {
  const rel = relative(dir, path)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}
