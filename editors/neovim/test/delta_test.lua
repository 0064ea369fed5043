-- Headless end-to-end test of decorations that follow edits (deltas) against a real highlight-ls,
-- under every Neovim the runner finds (0.7.2 and 0.11 in CI).
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/delta_test.lua'
--
-- Opens a 40,000-line file with a TODO on every line (and a few lines with a gutter sign, a whole
-- line and multi-byte text) and checks that:
--   - after an edit the plugin receives a delta carrying only the edited lines, and redraws only
--     those (an extmark far away keeps its id);
--   - after a sequence of edits (typing, inserting, deleting and joining lines, a burst without
--     waiting, an undo), the extmarks equal those drawn from a fresh whole `highlight/decorations`;
--   - a broken chain (a payload dropped on purpose, a delta on an unknown payload, a stale
--     version) is mended by one request for the whole set, and deltas apply again after it;
--   - `clear()` and turning highlighting off and on leave nothing half drawn.
-- Exits 0 when every check passes, 1 otherwise.

local api = vim.api
local T = dofile("editors/neovim/test/support.lua")
local say, check, write_file = T.say, T.check, T.write_file
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 30000
local line_total = 40000

local function finish()
  T.finish("neovim delta", true)
end

local binary = T.server_binary()
if not binary then
  finish()
  return
end

T.dark_backdrop()

local workspace = T.workspace([[
{
  "styles": { "bug": { "color": "#fff", "backgroundColor": "#d32f2f", "gutter": { "text": "B" } } },
  "rules": [
    { "name": "bug", "words": ["BUG"] },
    { "name": "focus", "words": ["FOCUS"], "style": { "backgroundColor": "#f9a82580", "wholeLine": true } },
    { "name": "ticket", "regex": "\\b[A-Z]{2,}-[0-9]+\\b", "style": { "color": "#3b82f6", "underline": true } },
  ],
}
]])
local text = {}
for index = 1, line_total do
  text[index] = string.format("%06d some words before the TODO and some after it", index)
end
text[5] = "000005 ü TODO 👍 BUG and FOCUS ABC-12"
text[8] = "000008 FOCUS only"
text[12] = "000012 BUG BUG"
local path = workspace .. "/large.txt"
vim.fn.writefile(text, path)

local plugin = require("highlight-ls")

-- Every notification the handler receives, and what apply_decorations made of every payload
-- (notifications and request answers): { result, drawn, reason }.
local received = {}
local applied = {}
local drop_next = false
local dropped = {}
local publish = plugin.on_publish_decorations
plugin.on_publish_decorations = function(err, result, ctx, config)
  if drop_next then
    -- A payload lost on the way, as when the server replaces one the client has not read.
    drop_next = false
    dropped[#dropped + 1] = result
    return
  end
  received[#received + 1] = result
  return publish(err, result, ctx, config)
end
local apply = plugin.apply_decorations
plugin.apply_decorations = function(result, client_id)
  local drawn, reason = apply(result, client_id)
  applied[#applied + 1] = { result = result, drawn = drawn, reason = reason }
  return drawn, reason
end

plugin.setup({ cmd = { binary } })
vim.cmd("edit " .. vim.fn.fnameescape(path))
local bufnr = api.nvim_get_current_buf()

local function current_version()
  return vim.lsp.util.buf_versions[bufnr]
end

local function mark_count()
  return #api.nvim_buf_get_extmarks(bufnr, plugin.namespace, 0, -1, {})
end

-- Whether the last payload drawn is for the buffer's current version and nothing came after it.
local function settled()
  local last = applied[#applied]
  return last ~= nil and last.drawn ~= nil and last.result.textDocument.version == current_version()
end

local function wait_settled(what)
  local ok = vim.wait(timeout_ms, settled, 5)
  local last = applied[#applied]
  check(ok, what .. ": the buffer's current version " .. tostring(current_version()) .. " is drawn (last payload: "
    .. (last and (tostring(last.result.textDocument.version) .. ", " .. tostring(last.reason or "drawn")) or "none") .. ")")
  return ok
end

-- The client's requests for the whole set, counted by wrapping the client's request function
-- (a method on 0.11, a function of the method name on 0.7).
local requests = 0
local function count_requests(client)
  local original = client.request
  client.request = function(...)
    for _, argument in ipairs({ ... }) do
      if argument == plugin.decorations_request then
        requests = requests + 1
        break
      end
    end
    return original(...)
  end
end

-- Our extmarks as sorted strings of everything drawn: position, end, groups, sign and priority.
local function snapshot()
  local marks = {}
  for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, plugin.namespace, 0, -1, { details = true })) do
    local d = mark[4] or {}
    marks[#marks + 1] = table.concat({
      string.format("%06d:%03d", mark[2], mark[3]),
      tostring(d.end_row), tostring(d.end_col), tostring(d.hl_group), tostring(d.sign_text),
      tostring(d.sign_hl_group), tostring(d.line_hl_group), tostring(d.priority),
    }, " ")
  end
  table.sort(marks)
  return marks
end

local function first_difference(a, b)
  for index = 1, math.max(#a, #b) do
    if a[index] ~= b[index] then
      return string.format("#%d: drawn by deltas %s, drawn whole %s", index, tostring(a[index]), tostring(b[index]))
    end
  end
  return nil
end

-- Checks that what the deltas drew equals what a fresh whole request draws. The answer's
-- resultId is the one later deltas build on, so the chain goes on from there.
local function check_equals_whole(what)
  if not wait_settled(what) then
    return
  end
  local by_deltas = snapshot()
  local count = #applied
  plugin.clear(bufnr)
  plugin.refresh(bufnr)
  local ok = vim.wait(timeout_ms, function()
    return #applied > count and settled() and applied[#applied].result.edit == nil
  end, 5)
  check(ok, what .. ": the whole set arrives")
  local whole = snapshot()
  local difference = first_difference(by_deltas, whole)
  check(difference == nil and #whole > 0, what .. ": the extmarks drawn by deltas equal the whole set's ("
    .. #by_deltas .. " and " .. #whole .. "); " .. tostring(difference))
end

-- The payloads received since `since` (an index into `received`).
local function received_since(since)
  local list = {}
  for index = since + 1, #received do
    list[#list + 1] = received[index]
  end
  return list
end

-- Makes one edit, waits until it is drawn, and checks that it came as deltas that were all drawn,
-- without asking for the whole set.
local function edit_step(what, edit)
  local since_received, since_requests, since_applied = #received, requests, #applied
  edit()
  if not wait_settled(what) then
    return
  end
  local payloads = received_since(since_received)
  local all_deltas = #payloads > 0
  for _, payload in ipairs(payloads) do
    all_deltas = all_deltas and type(payload.edit) == "table"
  end
  local all_drawn = true
  for index = since_applied + 1, #applied do
    all_drawn = all_drawn and applied[index].drawn ~= nil
  end
  check(all_deltas, what .. ": the server sent deltas only (" .. #payloads .. " payloads)")
  check(all_drawn, what .. ": every delta was drawn")
  check(requests == since_requests, what .. ": no request for the whole set")
end

-- The checks, in a function so that an error ends the test rather than leaving Neovim waiting.
local function run()
  -- Opening: the whole document once, with a resultId. ----------------------------------------
  local opened = vim.wait(timeout_ms, function()
    return mark_count() >= line_total and settled()
  end, 10)
  check(opened, "every line is drawn after opening (" .. mark_count() .. " extmarks)")
  check(received[1] ~= nil and received[1].edit == nil and type(received[1].resultId) == "string",
    "the first payload is whole, with a resultId")
  local client = plugin.clients(bufnr)[1]
  check(client ~= nil, "the client is attached")
  if not client then
    return
  end
  count_requests(client)

  -- One edit in the large buffer: a delta with the edited line only. -----------------------------
  local function extmark_id_at(line)
    local marks = api.nvim_buf_get_extmarks(bufnr, plugin.namespace, { line, 0 }, { line, -1 }, {})
    return marks[1] and marks[1][1]
  end
  local far_id = extmark_id_at(30000)
  local marks_before = mark_count()
  local since = #received
  edit_step("a character typed on line 100", function()
    api.nvim_buf_set_text(bufnr, 100, 0, 100, 0, { "x" })
  end)
  local payload = received[since + 1]
  if check(payload ~= nil and type(payload.edit) == "table", "typing a character brings a delta") then
    local edit = payload.edit
    check(edit.startLine == 100 and edit.endLine == 101 and edit.oldEndLine == 101,
      "the delta covers line 100 alone: " .. vim.inspect(edit, { newline = " ", indent = "" }):sub(1, 200))
    check(type(payload.previousResultId) == "string" and payload.previousResultId == received[since].resultId,
      "the delta builds on the payload before it")
    local ranges = edit.ranges or {}
    local on_edited_line = #ranges == 4
    for offset = 1, #ranges, 4 do
      on_edited_line = on_edited_line and ranges[offset] == 100
    end
    check(on_edited_line, "the delta's ranges are the one TODO on line 100: " .. vim.inspect(ranges))
    check(ranges[2] == 30 and ranges[3] == 34, "the TODO moved one byte right: " .. vim.inspect(ranges))
  end
  check(mark_count() == marks_before, "as many extmarks as before the edit (" .. mark_count() .. ")")
  check(extmark_id_at(30000) == far_id and far_id ~= nil, "line 30000 kept its extmark (not redrawn)")

  since = #received
  edit_step("a line inserted at the top", function()
    api.nvim_buf_set_lines(bufnr, 0, 0, false, { "FIXME a new first line" })
  end)
  payload = received[since + 1]
  if check(payload ~= nil and type(payload.edit) == "table", "inserting a line brings a delta") then
    local edit = payload.edit
    check(edit.startLine == 0 and edit.endLine - edit.startLine <= 2 and edit.endLine - edit.oldEndLine == 1,
      "the delta covers the new line (and the one it was typed before): " .. vim.inspect(edit, { newline = " ", indent = "" }):sub(1, 200))
    local ranges = edit.ranges or {}
    local near_top = #ranges > 0 and #ranges <= 8
    for offset = 1, #ranges, 4 do
      near_top = near_top and ranges[offset] < edit.endLine
    end
    check(near_top, "the delta's ranges are on those lines only: " .. vim.inspect(ranges))
  end
  check(extmark_id_at(30001) == far_id, "the far extmark moved down a line with the text, not redrawn")
  check_equals_whole("after typing and a new first line")

  -- A sequence of edits, each drawn from deltas. ------------------------------------------------
  edit_step("typing a word on line 3, one character at a time", function()
    for _, character in ipairs({ "B", "U", "G", " " }) do
      local column = #api.nvim_buf_get_lines(bufnr, 3, 4, false)[1]
      api.nvim_buf_set_text(bufnr, 3, column, 3, column, { character })
      -- Each keystroke is drawn before the next, as when typing at a human pace.
      wait_settled("a keystroke on line 3")
    end
  end)
  edit_step("a line with a sign, a whole line and a ticket inserted in the middle", function()
    api.nvim_buf_set_lines(bufnr, 20, 20, false, { "FOCUS and BUG and XY-42 and NOTE" })
  end)
  edit_step("two lines deleted", function()
    api.nvim_buf_set_lines(bufnr, 9, 11, false, {})
  end)
  edit_step("a line deleted with dd", function()
    api.nvim_win_set_cursor(0, { 16, 0 })
    vim.cmd("silent normal! dd")
  end)
  edit_step("two lines joined with J", function()
    api.nvim_win_set_cursor(0, { 4, 0 })
    vim.cmd("normal! J")
  end)
  edit_step("a line split in two", function()
    api.nvim_buf_set_text(bufnr, 6, 10, 6, 10, { "", "split FIXME " })
  end)
  edit_step("the multi-byte line edited before its marks", function()
    local line = api.nvim_buf_get_lines(bufnr, 0, -1, false)
    local row
    for index, value in ipairs(line) do
      if value:find("👍", 1, true) then
        row = index - 1
        break
      end
    end
    api.nvim_buf_set_text(bufnr, row, 0, row, 0, { "é HACK " })
  end)
  edit_step("a marker removed", function()
    api.nvim_buf_set_text(bufnr, 2, 29, 2, 33, { "done" })
  end)
  edit_step("the last line deleted", function()
    local last = api.nvim_buf_line_count(bufnr)
    api.nvim_buf_set_lines(bufnr, last - 1, last, false, {})
  end)
  edit_step("a line appended at the end", function()
    api.nvim_buf_set_lines(bufnr, -1, -1, false, { "TODO at the very end" })
  end)
  check_equals_whole("after a sequence of edits")

  -- A burst of edits without waiting, and an undo: the server makes one delta of the changes it
  -- has, and payloads that are stale when they arrive are dropped and mended by a request.
  for round = 1, 5 do
    api.nvim_buf_set_text(bufnr, 30 + round, 0, 30 + round, 0, { "TODO " })
    api.nvim_buf_set_lines(bufnr, 40, 41, false, {})
  end
  api.nvim_win_set_cursor(0, { 50, 0 })
  vim.cmd("normal! J")
  vim.cmd("silent normal! u")
  check_equals_whole("after a burst of edits and an undo")

  -- A broken chain: a payload dropped on purpose. ---------------------------------------------
  local requests_before = requests
  drop_next = true
  api.nvim_buf_set_text(bufnr, 60, 0, 60, 0, { "BUG " })
  local lost = vim.wait(timeout_ms, function()
    return #dropped == 1
  end, 5)
  check(lost and dropped[1] and type(dropped[1].edit) == "table", "a delta was dropped on the way")
  since = #received
  api.nvim_buf_set_text(bufnr, 61, 0, 61, 0, { "FIXME " })
  wait_settled("after the dropped delta")
  local next_delta, answer
  for index = #applied, 1, -1 do
    local entry = applied[index]
    if entry.result.edit and entry.result == received[since + 1] then
      next_delta = entry
    end
  end
  answer = applied[#applied]
  check(next_delta ~= nil and next_delta.drawn == nil and tostring(next_delta.reason):find("^broken chain") ~= nil,
    "the delta after the lost one is not drawn (" .. tostring(next_delta and next_delta.reason) .. ")")
  check(requests == requests_before + 1, "one request for the whole set mends the chain (" .. (requests - requests_before) .. ")")
  check(answer ~= nil and answer.result.edit == nil and answer.drawn ~= nil and type(answer.result.resultId) == "string",
    "the whole set was drawn, with a resultId")
  local line_60 = api.nvim_buf_get_extmarks(bufnr, plugin.namespace, { 60, 0 }, { 60, -1 }, { details = true })
  local has_bug = false
  for _, mark in ipairs(line_60) do
    has_bug = has_bug or (mark[3] == 0 and mark[4].end_col == 3)
  end
  check(has_bug, "the lost delta's BUG on line 60 is drawn by the whole set")
  edit_step("an edit after the chain was mended", function()
    api.nvim_buf_set_text(bufnr, 62, 0, 62, 0, { "NOTE " })
  end)
  check_equals_whole("after the mended chain")

  -- Deltas that cannot be drawn, given directly: one request while one is on its way. ----------
  local uri = vim.uri_from_bufnr(bufnr)
  local function foreign_delta(version)
    return {
      textDocument = { uri = uri, version = version },
      positionEncoding = "utf-8",
      resultId = "no-such-result-2",
      previousResultId = "no-such-result-1",
      styles = {},
      edit = { startLine = 0, endLine = 1, oldEndLine = 1, ranges = {} },
    }
  end
  requests_before = requests
  local before = snapshot()
  local drawn, reason = plugin.apply_decorations(foreign_delta(current_version() - 1), client.id)
  check(drawn == nil and tostring(reason):find("^stale") ~= nil, "a delta for an older version is not drawn (" .. tostring(reason) .. ")")
  check(requests == requests_before, "a stale delta asks for nothing: the payload for the change comes next")
  drawn, reason = plugin.apply_decorations(foreign_delta(current_version()), client.id)
  check(drawn == nil and tostring(reason):find("^broken chain") ~= nil, "a delta on an unknown payload is not drawn (" .. tostring(reason) .. ")")
  plugin.apply_decorations(foreign_delta(current_version()), client.id)
  plugin.apply_decorations(foreign_delta(current_version()), client.id)
  check(requests == requests_before + 1, "three such deltas ask once while the request is on its way (" .. (requests - requests_before) .. ")")
  wait_settled("after the request for unknown payloads")
  check(first_difference(snapshot(), before) == nil, "the whole set drawn after them is what was there")
  edit_step("an edit after the request", function()
    api.nvim_buf_set_text(bufnr, 63, 0, 63, 0, { "HACK " })
  end)

  -- Clearing and turning off: the next update draws everything again. ---------------------------
  plugin.clear(bufnr)
  check(mark_count() == 0, "clear() removes every extmark")
  api.nvim_buf_set_text(bufnr, 64, 0, 64, 0, { "x" })
  local back = vim.wait(timeout_ms, function()
    return settled() and mark_count() > line_total
  end, 5)
  check(back, "after clear(), the next edit brings every extmark back, not just its line (" .. mark_count() .. ")")
  check_equals_whole("after clear() and an edit")
  plugin.disable(bufnr)
  api.nvim_buf_set_text(bufnr, 65, 0, 65, 0, { "x" })
  vim.wait(500, function()
    return false
  end, 20)
  check(mark_count() == 0, "a disabled buffer draws no delta")
  plugin.enable(bufnr)
  check_equals_whole("after turning highlighting off, editing, and on")
end

local ran, problem = xpcall(run, debug.traceback)
check(ran, "the test ran to its end: " .. tostring(problem))

-- No error reached :messages.
local messages = vim.fn.execute("messages")
check(not messages:find("E%d+:") and not messages:find("rror"), ":messages is clean:\n" .. messages)

finish()
