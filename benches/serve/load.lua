-- wrk script of benches/serve/load.sh: each request is the next step of a loop over the
-- sessions made beforehand (ids in the file named by the first argument), one kind after the
-- other: observe (GET .../observation), act (POST .../act, a field set to the value it has, so
-- every act is a committed change that keeps the program as it was), evaluate (POST
-- .../evaluate with the suite file of the second argument). The third argument chooses the
-- kinds: "observe,act" or "observe,act,evaluate". Prints one JSON line at the end.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local function read(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("*a")
  f:close()
  return text
end

function init(args)
  ids = {}
  for id in read(args[1]):gmatch("%S+") do table.insert(ids, id) end
  suite = '{"suite": ' .. read(args[2]) .. '}'
  kinds = {}
  for k in args[3]:gmatch("[^,]+") do table.insert(kinds, k) end
  act = '{"api": "set_block_field", "args": {"blockIndex": 5, "fieldName": "DIRECTION", "value": "90"}}'
  n = 0
  statuses = {}
  wrk.headers["content-type"] = "application/json"
end

function request()
  local i = n
  n = n + 1
  local id = ids[(i % #ids) + 1]
  local kind = kinds[(math.floor(i / #ids) % #kinds) + 1]
  local base = "/v1/sessions/" .. id
  if kind == "observe" then
    return wrk.format("GET", base .. "/observation")
  elseif kind == "act" then
    return wrk.format("POST", base .. "/act", nil, act)
  else
    return wrk.format("POST", base .. "/evaluate", nil, suite)
  end
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, t in ipairs(threads) do
    for status, c in pairs(t:get("statuses")) do
      counts[tostring(status)] = (counts[tostring(status)] or 0) + c
    end
  end
  local parts = {}
  for status, c in pairs(counts) do table.insert(parts, string.format('"%s": %d', status, c)) end
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.2f, "per_second": %.0f, "latency_ms": {"p50": %.2f, "p90": %.2f, "p99": %.2f, "max": %.2f}, ' ..
    '"statuses": {%s}, "socket_errors": {"connect": %d, "read": %d, "write": %d, "timeout": %d}}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1e3, latency:percentile(90) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
    table.concat(parts, ", "), e.connect, e.read, e.write, e.timeout))
end
