-- Headless end-to-end test of the Neovim plugin against a real highlight-ls.
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/decorations_test.lua'
--
-- Opens a file in a fresh workspace with a .highlights.json, waits (bounded) for the extmarks
-- the server's decorations produce, and checks their byte columns and highlight attributes;
-- then edits the buffer and checks again. Exits 0 when every check passes, 1 otherwise.

local api = vim.api
local failures = 0
local checks = 0
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 15000

local function say(message)
  io.stdout:write(message .. "\n")
end

local function finish()
  vim.lsp.stop_client(vim.lsp.get_active_clients())
  vim.wait(2000, function()
    return #vim.lsp.get_active_clients() == 0
  end, 20)
  if failures > 0 then
    say(string.format("neovim: FAILED (%d of %d checks failed)", failures, checks))
    vim.cmd("cquit 1")
  else
    say(string.format("neovim: ok (%d checks)", checks))
    vim.cmd("qall!")
  end
end

local function check(condition, message)
  checks = checks + 1
  if not condition then
    failures = failures + 1
    say("FAIL: " .. message)
  end
  return condition
end

local function write_file(path, text)
  local file = assert(io.open(path, "wb"))
  file:write(text)
  file:close()
end

-- The extmarks of our namespace as { line, start byte, end byte, group }, in order.
local function extmarks(bufnr)
  local ns = require("highlight-ls").namespace
  local marks = {}
  for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
    local details = mark[4] or {}
    marks[#marks + 1] = { mark[2], mark[3], details.end_col, details.hl_group }
  end
  table.sort(marks, function(a, b)
    if a[1] ~= b[1] then
      return a[1] < b[1]
    end
    return a[2] < b[2]
  end)
  return marks
end

local function describe(marks)
  local parts = {}
  for _, mark in ipairs(marks) do
    parts[#parts + 1] = string.format("{%s,%s,%s,%s}", tostring(mark[1]), tostring(mark[2]), tostring(mark[3]), tostring(mark[4]))
  end
  return "{" .. table.concat(parts, " ") .. "}"
end

local function wait_for_extmarks(bufnr, expected, what)
  local wanted = describe(expected)
  local arrived = vim.wait(timeout_ms, function()
    return describe(extmarks(bufnr)) == wanted
  end, 20)
  check(arrived, string.format("%s: extmarks\n  expected %s\n  got      %s", what, wanted, describe(extmarks(bufnr))))
end

-- Checks the attributes of a highlight group; colours as 0xrrggbb numbers.
local function check_group(group, expected)
  local ok, actual = pcall(api.nvim_get_hl_by_name, group, true)
  if not check(ok, "highlight group " .. group .. " exists") then
    return
  end
  for _, key in ipairs({ "foreground", "background", "special", "bold", "italic", "underline", "strikethrough" }) do
    local want = expected[key]
    local got = actual[key]
    if key == "bold" or key == "italic" or key == "underline" or key == "strikethrough" then
      want = want or false
      got = got or false
    end
    check(want == got, string.format("%s.%s: expected %s, got %s", group, key, tostring(want), tostring(got)))
  end
end

local binary = os.getenv("HIGHLIGHT_LS")
if binary == nil or binary == "" then
  binary = "highlight-ls"
end
if vim.fn.executable(binary) ~= 1 then
  say("FAIL: highlight-ls binary not executable: " .. binary .. " (set HIGHLIGHT_LS)")
  failures = failures + 1
  finish()
  return
end

-- A fixed backdrop, so translucent colours blend the same on every Neovim version.
vim.o.background = "dark"
api.nvim_set_hl(0, "Normal", { fg = "#ffffff", bg = "#000000" })

local workspace = vim.fn.tempname()
vim.fn.mkdir(workspace, "p")
write_file(workspace .. "/.highlights.json", [[
{
  "rules": [
    { "name": "ticket", "regex": "\\b[A-Z]{2,}-[0-9]+\\b", "style": { "color": "#3b82f6", "underline": true } },
    { "name": "cafe", "words": ["café"], "caseSensitive": false, "wholeWord": true,
      "style": { "backgroundColor": "#ff000080", "italic": true, "borderColor": "#00ff00" } },
  ],
}
]])
local path = workspace .. "/sample.txt"
write_file(path, "TODO 👍 ABC-123 café\n")

local plugin = require("highlight-ls")
plugin.setup({ cmd = { binary }, decorations = true })
vim.cmd("edit " .. vim.fn.fnameescape(path))
local bufnr = api.nvim_get_current_buf()

-- Byte columns:   T O D O ␠ 👍(4 bytes) ␠ A B C - 1 2 3 ␠ c a f é(2 bytes)
--                 0       4 5           9 10           17 18       23
wait_for_extmarks(bufnr, {
  { 0, 0, 4, "HighlightLsTodo" },
  { 0, 10, 17, "HighlightLsTicket" },
  { 0, 18, 23, "HighlightLsCafe" },
}, "after opening")

check_group("HighlightLsTodo", { foreground = 0x1a1a1a, background = 0xf9a825, bold = true })
check_group("HighlightLsTicket", { foreground = 0x3b82f6, underline = true })
-- #ff000080 over black is #800000; the border colour becomes the special colour.
check_group("HighlightLsCafe", { background = 0x800000, special = 0x00ff00, italic = true })

-- An edit: a new match in front (multi-byte text shifts every column) and a second line.
api.nvim_buf_set_lines(bufnr, 0, 1, false, { "FIXME ü TODO 👍 ABC-123 café", "  DEPRECATED ZZ-9" })
wait_for_extmarks(bufnr, {
  { 0, 0, 5, "HighlightLsFixme" },
  { 0, 9, 13, "HighlightLsTodo" },
  { 0, 19, 26, "HighlightLsTicket" },
  { 0, 27, 32, "HighlightLsCafe" },
  { 1, 2, 12, "HighlightLsDeprecated" },
  { 1, 13, 17, "HighlightLsTicket" },
}, "after an edit")
check_group("HighlightLsFixme", { foreground = 0xffffff, background = 0xd32f2f, bold = true })
check_group("HighlightLsDeprecated", { foreground = 0x9e9e9e, strikethrough = true })

-- An edit after the emoji on the same line, where UTF-8, UTF-16 and UTF-32 columns all differ.
api.nvim_buf_set_text(bufnr, 0, 19, 0, 19, { "XY-7 " })
local after_edits = {
  { 0, 0, 5, "HighlightLsFixme" },
  { 0, 9, 13, "HighlightLsTodo" },
  { 0, 19, 23, "HighlightLsTicket" },
  { 0, 24, 31, "HighlightLsTicket" },
  { 0, 32, 37, "HighlightLsCafe" },
  { 1, 2, 12, "HighlightLsDeprecated" },
  { 1, 13, 17, "HighlightLsTicket" },
}
wait_for_extmarks(bufnr, after_edits, "after an edit behind the emoji")

-- A notification for an older version than the buffer's is ignored.
local before = describe(extmarks(bufnr))
local drawn, reason = plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = 0 },
  positionEncoding = "utf-8",
  styles = {},
  ranges = {},
})
check(drawn == nil and tostring(reason):match("^stale") ~= nil, "a stale notification is ignored (" .. tostring(reason) .. ")")
check(describe(extmarks(bufnr)) == before, "a stale notification leaves the extmarks alone")

-- UTF-16 columns (what a server that ignored our encoding would send) are converted to bytes.
local version = vim.lsp.util.buf_versions[bufnr]
plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
  positionEncoding = "utf-16",
  styles = { { rule = "ticket", color = "#3b82f6ff", underline = true } },
  -- "FIXME ü TODO 👍 XY-7 " is 21 UTF-16 units (the emoji is a surrogate pair); ABC-123 follows.
  ranges = { 0, 21, 28, 0 },
})
check(describe(extmarks(bufnr)) == describe({ { 0, 24, 31, "HighlightLsTicket" } }), "utf-16 columns become byte columns: " .. describe(extmarks(bufnr)))

-- The request gives the server's current state back.
plugin.refresh(bufnr)
wait_for_extmarks(bufnr, after_edits, "after highlight/decorations")

-- An empty ranges array clears the buffer.
plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
  positionEncoding = "utf-8",
  styles = {},
  ranges = {},
})
check(#extmarks(bufnr) == 0, "empty ranges clear the decorations")

finish()
