#!/bin/sh
# A Conquian bot in one jq filter: JSON lines in, JSON lines out (protocol version 1).
# It answers the hello, then plays the first legal action of every decision.
exec jq --unbuffered -c '
  if .type == "hello" then {type: "hello", protocol: 1, name: "first_bot.sh"}
  elif .type == "decide" then {type: "action", action: .legal[0]}
  else empty end'
