-- Ends each wrk thread after it has had `limit` responses (the first argument after `--`), so
-- that a run makes a known number of requests: `wrk -t2 ... -s stop-after.lua URL -- 10000`.
local limit, count = 0, 0

function init(args)
    limit = tonumber(args[1]) or 0
end

function response(status, headers, body)
    count = count + 1
    if limit > 0 and count >= limit then
        wrk.thread:stop()
    end
end
