import { describe, expect, it } from 'vitest'
import { main as quickstart } from '../examples/quickstart.js'

describe('README examples', () => {
  it('quickstart: send, read, revert', async () => {
    expect(await quickstart()).toEqual({ balance: 10n ** 18n, afterRevert: 0n })
  })
})
