// The Lua scripts of the Redis learning store: each change of learned terms runs as one
// script, so that two replicas recording at once never both take a token's last share,
// and the decay, the per-tool bound and the bound in all hold as in core's memory store.
//
// Keys under `<prefix>learning:` (P is the profile, URI-encoded, so that no profile
// reaches into another's keys; a tool name is the last part of its keys):
//   profiles      set of P
//   entries       how many terms are kept in all
//   m:P           hash: step (the decay step the counts are at), version (bumped on change)
//   i:P           hash: tool → version (bumped when its terms change): the profile's tools
//   t:P:<tool>    hash: term → count
//   k:P:<tool>    hash: <token hash> → what it gave the tool; <token hash>:<term> → to the term

/** Lua shared by the scripts: the key names, the decay and the prune in all. */
const COMMON = `
local base = ARGV[1]
local function metaKey(p) return base .. 'm:' .. p end
local function toolsKey(p) return base .. 'i:' .. p end
local function termsKey(p, tool) return base .. 't:' .. p .. ':' .. tool end
local function tokensKey(p, tool) return base .. 'k:' .. p .. ':' .. tool end
local entriesKey = base .. 'entries'
local profilesKey = base .. 'profiles'
local TOKEN_LEN = 16

-- The tokens' shares of a tool's terms that are gone, and the others times factor.
local function scaleTokens(p, tool, factor)
  local tk = tokensKey(p, tool)
  local tm = termsKey(p, tool)
  local flat = redis.call('HGETALL', tk)
  for i = 1, #flat, 2 do
    local field = flat[i]
    if #field > TOKEN_LEN and redis.call('HEXISTS', tm, string.sub(field, TOKEN_LEN + 2)) == 0 then
      redis.call('HDEL', tk, field)
    elseif factor ~= 1 then
      redis.call('HSET', tk, field, tostring(tonumber(flat[i + 1]) * factor))
    end
  end
end

local function touchTool(p, tool)
  if redis.call('HLEN', termsKey(p, tool)) == 0 then
    redis.call('DEL', termsKey(p, tool), tokensKey(p, tool))
    redis.call('HDEL', toolsKey(p), tool)
  else
    redis.call('HINCRBY', toolsKey(p), tool, 1)
  end
  redis.call('HINCRBY', metaKey(p), 'version', 1)
end

-- Brings a profile's counts to step now (a no-op within a step); forgets what falls below min.
local function decay(p, now, perStep, min)
  local step = tonumber(redis.call('HGET', metaKey(p), 'step'))
  if step == nil or step >= now then
    if step == nil then redis.call('HSET', metaKey(p), 'step', now) end
    return
  end
  local factor = perStep ^ (now - step)
  local dropped = 0
  for _, tool in ipairs(redis.call('HKEYS', toolsKey(p))) do
    local tm = termsKey(p, tool)
    local flat = redis.call('HGETALL', tm)
    for i = 1, #flat, 2 do
      local count = tonumber(flat[i + 1]) * factor
      if count < min then
        redis.call('HDEL', tm, flat[i])
        dropped = dropped + 1
      else
        redis.call('HSET', tm, flat[i], tostring(count))
      end
    end
    scaleTokens(p, tool, factor)
    touchTool(p, tool)
  end
  redis.call('HSET', metaKey(p), 'step', now)
  if dropped > 0 then redis.call('DECRBY', entriesKey, dropped) end
end

-- Past the bound in all: forgets the lightest tenth of every profile's terms.
local function prune(share)
  local counts = {}
  local profiles = redis.call('SMEMBERS', profilesKey)
  for _, p in ipairs(profiles) do
    for _, tool in ipairs(redis.call('HKEYS', toolsKey(p))) do
      local flat = redis.call('HGETALL', termsKey(p, tool))
      for i = 2, #flat, 2 do counts[#counts + 1] = tonumber(flat[i]) end
    end
  end
  if #counts == 0 then return end
  table.sort(counts)
  local threshold = counts[math.min(math.max(1, math.ceil(#counts * share)), #counts)]
  local kept = 0
  for _, p in ipairs(profiles) do
    for _, tool in ipairs(redis.call('HKEYS', toolsKey(p))) do
      local tm = termsKey(p, tool)
      local flat = redis.call('HGETALL', tm)
      for i = 1, #flat, 2 do
        if tonumber(flat[i + 1]) <= threshold then redis.call('HDEL', tm, flat[i])
        else kept = kept + 1 end
      end
      scaleTokens(p, tool, 1)
      touchTool(p, tool)
    end
    if redis.call('HLEN', toolsKey(p)) == 0 then
      redis.call('DEL', metaKey(p), toolsKey(p))
      redis.call('SREM', profilesKey, p)
    end
  end
  redis.call('SET', entriesKey, kept)
end

local function lightest(tm, keep)
  local term, least = nil, math.huge
  local flat = redis.call('HGETALL', tm)
  for i = 1, #flat, 2 do
    local count = tonumber(flat[i + 1])
    if flat[i] ~= keep and count < least then term, least = flat[i], count end
  end
  return term, least
end
`;

/**
 * Counts terms for one tool of one profile, within the token's caps and the store's
 * bounds, after bringing the profile's counts to the current decay step.
 * ARGV: base, profile (encoded), tool, now step, decay factor per step, least count
 * kept, token hash ('' for none), token cap, token cap per tool, terms per tool, terms
 * in all, prune share, then term, amount pairs. Returns how many terms were counted.
 */
export const LEARN_ADD_SCRIPT = `${COMMON}
local p, tool = ARGV[2], ARGV[3]
decay(p, tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]))
local token = ARGV[7]
local tokenCap, tokenToolCap = tonumber(ARGV[8]), tonumber(ARGV[9])
local maxTerms, maxEntries = tonumber(ARGV[10]), tonumber(ARGV[11])
local tm, tk = termsKey(p, tool), tokensKey(p, tool)
local counted, added, droppedAny = 0, 0, false
for i = 13, #ARGV, 2 do
  local term, amount = ARGV[i], tonumber(ARGV[i + 1])
  local count = tonumber(redis.call('HGET', tm, term))
  local given = amount
  local skip = false
  if token ~= '' then
    local before = tonumber(redis.call('HGET', tk, token .. ':' .. term)) or 0
    local toolBefore = tonumber(redis.call('HGET', tk, token)) or 0
    given = math.min(amount, tokenCap - before, tokenToolCap - toolBefore)
    if not (given > 0) then skip = true
    elseif count == nil and redis.call('HLEN', tm) >= maxTerms then
      -- A token's first word for a full tool only displaces a term as light as it.
      local _, least = lightest(tm, nil)
      if least > given then skip = true end
    end
  end
  if not skip then
    if count == nil then
      count = 0
      added = added + 1
    end
    redis.call('HSET', tm, term, tostring(count + given))
    if token ~= '' then
      redis.call('HINCRBYFLOAT', tk, token, given)
      redis.call('HINCRBYFLOAT', tk, token .. ':' .. term, given)
    end
    counted = counted + 1
    if redis.call('HLEN', tm) > maxTerms then
      local drop = lightest(tm, term)
      if drop ~= nil then
        redis.call('HDEL', tm, drop)
        added = added - 1
        droppedAny = true
      end
    end
  end
end
if counted > 0 then
  if droppedAny then scaleTokens(p, tool, 1) end
  redis.call('SADD', profilesKey, p)
  touchTool(p, tool)
  if redis.call('INCRBY', entriesKey, added) > maxEntries then prune(tonumber(ARGV[12])) end
end
return counted
`;

/**
 * Forgets one profile (ARGV[2], encoded) or, with '', every profile. ARGV: base, profile.
 * Returns how many terms were forgotten.
 */
export const LEARN_CLEAR_SCRIPT = `${COMMON}
local profiles = ARGV[2] == '' and redis.call('SMEMBERS', profilesKey) or { ARGV[2] }
local dropped = 0
for _, p in ipairs(profiles) do
  for _, tool in ipairs(redis.call('HKEYS', toolsKey(p))) do
    dropped = dropped + redis.call('HLEN', termsKey(p, tool))
    redis.call('DEL', termsKey(p, tool), tokensKey(p, tool))
  end
  redis.call('DEL', toolsKey(p))
  -- The version lives on, so that a replica's view of the profile sees the change.
  redis.call('HDEL', metaKey(p), 'step')
  redis.call('HINCRBY', metaKey(p), 'version', 1)
  redis.call('SREM', profilesKey, p)
end
if dropped > 0 then redis.call('DECRBY', entriesKey, dropped) end
return dropped
`;
