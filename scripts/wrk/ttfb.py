"""Time to first byte of a streamed page, as a browser meets it: CONNECTIONS kept-alive HTTP/1.1
connections on 127.0.0.1 each ask for PATH again and again for SECONDS; for each response, the
time from sending the request to its first byte (the status line, which a streamed page sends
with its shell) and to its last chunk. Prints p50 and p99 of both, in milliseconds. With
REQUESTS, the connections stop once that many responses came (or at SECONDS), so that a run
makes a known number of requests, which wrk cannot.

    python3 ttfb.py PORT PATH CONNECTIONS SECONDS [REQUESTS]
"""

import asyncio
import sys
import time


async def one_connection(port, path, deadline, limit, first, whole):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    try:
        while time.monotonic() < deadline and len(whole) < limit:
            start = time.monotonic()
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            first.append(time.monotonic() - start)
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(head.split(b"\r\n")[0].decode())
            headers = head.lower()
            if b"transfer-encoding: chunked" in headers:
                while True:
                    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                    await reader.readexactly(size + 2)
                    if size == 0:
                        break
            else:
                length = int(headers.split(b"content-length:")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
            whole.append(time.monotonic() - start)
    finally:
        writer.close()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000


async def main():
    port, path, connections, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    limit = int(sys.argv[5]) if len(sys.argv) > 5 else float("inf")
    first, whole = [], []
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(one_connection(port, path, deadline, limit, first, whole) for _ in range(connections)))
    print(
        f"{len(whole)} responses; first byte p50 {percentile(first, 0.5):.1f} ms, p99 {percentile(first, 0.99):.1f} ms;"
        f" whole page p50 {percentile(whole, 0.5):.1f} ms, p99 {percentile(whole, 0.99):.1f} ms"
    )


asyncio.run(main())
