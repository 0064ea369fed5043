-- Headless end-to-end test of finding matches: jump_next/jump_prev, :HighlightLsQuickfix,
-- :HighlightLsLocList and vim.lsp.buf.document_symbol(), against a real highlight-ls.
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/find_test.lua'
--
-- The text mixes two-, three- and four-byte characters before the matches, so that byte, UTF-16
-- and UTF-32 columns all differ; every position is checked as (line, byte column). Exits 0 when
-- every check passes, 1 otherwise.

local api = vim.api
local T = dofile("editors/neovim/test/support.lua")
local say, check, all_clients, write_file = T.say, T.check, T.all_clients, T.write_file
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 15000

local function finish()
  T.finish("neovim find", true)
end

local binary = T.server_binary()
if not binary then
  finish()
  return
end

local workspace = vim.fn.resolve(vim.fn.tempname())
vim.fn.mkdir(workspace .. "/sub", "p")
write_file(workspace .. "/.highlights.json", '{ "rules": [] }\n')
-- Byte columns:
--   line 0:  é ␠ T O D O ␠ 👍 ␠ F I X M E ␠ ç a        TODO 3..7, FIXME 13..18
--   line 2:  ␠ ␠ N O T E : ␠ 🔥 ␠ H A C K             NOTE 2..6 (not listed), HACK 13..17
--   line 3:  TODO 0..4
local path = workspace .. "/a.txt"
write_file(path, "é TODO 👍 FIXME ça\nplain line\n  NOTE: 🔥 HACK x\nTODO end\n")
-- A file that is never opened: its columns come from the file on disk.
write_file(workspace .. "/sub/b.txt", "日本 🔥 FIXME b\n")

local plugin = require("highlight-ls")
vim.cmd("runtime plugin/highlight-ls.lua")
plugin.setup({ cmd = { binary } })
vim.cmd("cd " .. vim.fn.fnameescape(workspace))
vim.cmd("edit " .. vim.fn.fnameescape(path))
local bufnr = api.nvim_get_current_buf()
local ready = vim.wait(timeout_ms, function()
  local matches = plugin.buffer_matches(bufnr)
  return matches ~= nil and #matches == 5
end, 50)
check(ready, "the server attaches and reports the buffer's five matches")

local messages = {}
local original_notify = vim.notify
vim.notify = function(message, level)
  messages[#messages + 1] = { message = message, level = level }
end
local function last_message()
  local last = messages[#messages]
  messages = {}
  return last and last.message or ""
end

local function cursor()
  local position = api.nvim_win_get_cursor(0)
  return string.format("%d:%d", position[1] - 1, position[2])
end

local function expect_jump(action, expected, message_pattern, what)
  messages = {}
  action()
  check(cursor() == expected, string.format("%s: cursor at %s, expected %s", what, cursor(), expected))
  local message = last_message()
  if message_pattern then
    check(message:find(message_pattern, 1, true) ~= nil, what .. ": message " .. vim.inspect(message) .. " has " .. message_pattern)
  else
    check(message == "", what .. ": no message, got " .. vim.inspect(message))
  end
end

-- Forward through every match, with a count, and around the end.
api.nvim_win_set_cursor(0, { 1, 0 })
expect_jump(function() plugin.jump_next() end, "0:3", nil, "next from the start")
expect_jump(function() plugin.jump_next() end, "0:13", nil, "next to FIXME behind the emoji")
expect_jump(function() plugin.jump_next({ count = 2 }) end, "2:13", nil, "next with a count of 2 passes NOTE")
expect_jump(function() plugin.jump_next() end, "3:0", nil, "next to the last match")
expect_jump(function() plugin.jump_next() end, "0:3", "search hit BOTTOM, continuing at TOP", "next wraps at the end")
-- Backward, around the start, and with a count.
expect_jump(function() plugin.jump_prev() end, "3:0", "search hit TOP, continuing at BOTTOM", "prev wraps at the start")
expect_jump(function() plugin.jump_prev({ count = 3 }) end, "0:13", nil, "prev with a count of 3")
-- From the middle of a match, the next one is after it and the previous one is it.
api.nvim_win_set_cursor(0, { 3, 14 })
expect_jump(function() plugin.jump_next() end, "3:0", nil, "next from inside HACK")
api.nvim_win_set_cursor(0, { 3, 14 })
expect_jump(function() plugin.jump_prev() end, "2:13", nil, "prev from inside HACK goes to its start")
-- A count wider than the list wraps as often as it needs.
api.nvim_win_set_cursor(0, { 1, 0 })
expect_jump(function() plugin.jump_next({ count = 7 }) end, "0:13", "search hit BOTTOM", "next with a count of 7 wraps once")

-- Limited to some rules: the others are skipped.
api.nvim_win_set_cursor(0, { 1, 0 })
expect_jump(function() plugin.jump_next({ rules = { "todo" } }) end, "0:3", nil, "next todo")
expect_jump(function() plugin.jump_next({ rules = { "todo" } }) end, "3:0", nil, "next todo skips fixme, note and hack")
expect_jump(function() plugin.jump_next({ rules = { "todo" } }) end, "0:3", "search hit BOTTOM", "next todo wraps")
expect_jump(function() plugin.jump_prev({ rules = { "hack", "fixme" } }) end, "2:13", "search hit TOP", "prev hack or fixme wraps to HACK")
expect_jump(function() plugin.jump_prev({ rules = { "hack", "fixme" } }) end, "0:13", nil, "prev hack or fixme")
expect_jump(function() plugin.jump_next({ rules = { "nosuchrule" } }) end, "0:13", "no matches of nosuchrule", "no match of the rules: the cursor stays")

-- The count typed before a mapping, as the README suggests mapping ]h and [h.
vim.keymap.set("n", "]h", function() plugin.jump_next() end)
vim.keymap.set("n", "[h", function() plugin.jump_prev() end)
api.nvim_win_set_cursor(0, { 1, 0 })
api.nvim_feedkeys("2]h", "x", false)
check(cursor() == "0:13", "2]h goes two matches on: " .. cursor())
api.nvim_feedkeys("3[h", "x", false)
check(cursor() == "2:13", "3[h goes three matches back, around the start: " .. cursor())
-- <C-o> goes back to where the jump started.
api.nvim_feedkeys(api.nvim_replace_termcodes("<C-o>", true, false, true), "x", false)
check(cursor() == "0:13", "<C-o> returns to where [h started: " .. cursor())
last_message()

-- An edit is sent before the jump asks: the match moved by the new text is where it lands.
api.nvim_buf_set_text(bufnr, 3, 0, 3, 0, { "ü 🔥 " })
api.nvim_win_set_cursor(0, { 3, 14 })
expect_jump(function() plugin.jump_next() end, "3:8", nil, "next after an edit lands on the moved TODO")

-- :HighlightLsLocList: every match of the buffer, or of some rules.
local function list_positions(items)
  local parts = {}
  for _, item in ipairs(items) do
    local name = item.bufnr and item.bufnr > 0 and vim.fn.fnamemodify(api.nvim_buf_get_name(item.bufnr), ":t") or "?"
    parts[#parts + 1] = string.format("%s:%d:%d-%d:%d %s", name, item.lnum, item.col, item.end_lnum or 0, item.end_col or 0, item.text)
  end
  return table.concat(parts, " | ")
end
local window = api.nvim_get_current_win()
vim.cmd("HighlightLsLocList")
local loc = vim.fn.getloclist(window)
local expected_loc = "a.txt:1:4-1:8 TODO 👍 FIXME ça | a.txt:1:14-1:19 FIXME ça | a.txt:3:3-3:7 NOTE: 🔥 HACK x"
  .. " | a.txt:3:14-3:18 HACK x | a.txt:4:9-4:13 TODO end"
check(list_positions(loc) == expected_loc, ":HighlightLsLocList holds every match:\n  expected " .. expected_loc .. "\n  got      " .. list_positions(loc))
check(vim.fn.getloclist(window, { title = 1 }).title == "highlight-ls buffer", ":HighlightLsLocList titles the list")
check(vim.bo.buftype == "quickfix", ":HighlightLsLocList opens the location list window")
vim.cmd("lclose")
api.nvim_set_current_win(window)
vim.cmd("HighlightLsLocList todo hack")
loc = vim.fn.getloclist(window)
expected_loc = "a.txt:1:4-1:8 TODO 👍 FIXME ça | a.txt:3:14-3:18 HACK x | a.txt:4:9-4:13 TODO end"
check(list_positions(loc) == expected_loc, ":HighlightLsLocList todo hack keeps those rules:\n  expected " .. expected_loc .. "\n  got      " .. list_positions(loc))
vim.cmd("lclose")
api.nvim_set_current_win(window)

-- :HighlightLsQuickfix: the listed matches of the whole workspace, the open buffer's from its
-- text (with the edit) and the other file's from the disk.
local function wait_quickfix(command, title)
  vim.fn.setqflist({}, " ", { title = "before", items = {} })
  vim.cmd(command)
  local arrived = vim.wait(timeout_ms, function()
    return vim.fn.getqflist({ title = 1 }).title == title
  end, 20)
  check(arrived, command .. " fills the quickfix list titled " .. title)
  local items = vim.fn.getqflist()
  if vim.bo.buftype == "quickfix" then
    vim.cmd("cclose")
  end
  api.nvim_set_current_win(window)
  local parts = {}
  for _, item in ipairs(items) do
    local name = item.bufnr > 0 and vim.fn.fnamemodify(api.nvim_buf_get_name(item.bufnr), ":.") or "?"
    parts[#parts + 1] = string.format("%s:%d:%d-%d:%d %s", name, item.lnum, item.col, item.end_lnum, item.end_col, item.text)
  end
  return table.concat(parts, " | ")
end
local qf = wait_quickfix("HighlightLsQuickfix", "highlight-ls workspace")
local expected_qf = "a.txt:1:4-1:8 TODO 👍 FIXME ça | a.txt:1:14-1:19 FIXME ça | a.txt:3:14-3:18 HACK x"
  .. " | a.txt:4:9-4:13 TODO end | sub/b.txt:1:13-1:18 FIXME b"
check(qf == expected_qf, ":HighlightLsQuickfix holds every listed match:\n  expected " .. expected_qf .. "\n  got      " .. qf)
qf = wait_quickfix("HighlightLsQuickfix fixme", "highlight-ls workspace: fixme")
expected_qf = "a.txt:1:14-1:19 FIXME ça | sub/b.txt:1:13-1:18 FIXME b"
check(qf == expected_qf, ":HighlightLsQuickfix fixme keeps the fixmes:\n  expected " .. expected_qf .. "\n  got      " .. qf)
qf = wait_quickfix("HighlightLsQuickfix hack todo", "highlight-ls workspace: hack, todo")
expected_qf = "a.txt:1:4-1:8 TODO 👍 FIXME ça | a.txt:3:14-3:18 HACK x | a.txt:4:9-4:13 TODO end"
check(qf == expected_qf, ":HighlightLsQuickfix hack todo keeps both rules:\n  expected " .. expected_qf .. "\n  got      " .. qf)
qf = wait_quickfix("HighlightLsQuickfix nosuchrule", "highlight-ls workspace: nosuchrule")
check(qf == "", ":HighlightLsQuickfix of an unknown rule is empty: " .. qf)

-- vim.lsp.buf.document_symbol() fills the location list from the server's outline: the rules
-- and, under them, their matches (the listed rules only: NOTE is not there). Neovim 0.7 fills
-- the quickfix list instead (its handler knows no other).
local uses_loclist = vim.fn.has("nvim-0.8") == 1
local function symbol_list()
  if uses_loclist then
    return vim.fn.getloclist(window)
  end
  return vim.fn.getqflist()
end
vim.fn.setloclist(window, {}, " ", { title = "before", items = {} })
vim.fn.setqflist({}, " ", { title = "before", items = {} })
vim.lsp.buf.document_symbol()
local filled = vim.wait(timeout_ms, function()
  return #symbol_list() > 0
end, 20)
check(filled, "vim.lsp.buf.document_symbol() fills the " .. (uses_loclist and "location" or "quickfix") .. " list")
local symbols = {}
for _, item in ipairs(symbol_list()) do
  symbols[#symbols + 1] = string.format("%d %s", item.lnum, item.text)
end
local got = table.concat(symbols, " | ")
local expected_symbols = "1 [Namespace] todo | 1 [String] TODO 👍 FIXME ça | 4 [String] TODO end | 1 [Namespace] fixme"
  .. " | 1 [String] FIXME ça | 3 [Namespace] hack | 3 [String] HACK x"
check(got == expected_symbols, "document symbols in the location list:\n  expected " .. expected_symbols .. "\n  got      " .. got)
-- 0.11 turns the server's columns into bytes; 0.7 takes UTF-16 columns as they come.
local columns = table.concat(vim.tbl_map(function(item) return item.lnum .. ":" .. item.col end, symbol_list()), " ")
local expected_columns = vim.fn.has("nvim-0.11") == 1 and "1:4 1:4 4:9 1:14 1:14 3:14 3:14" or "1:3 1:3 4:6 1:11 1:11 3:12 3:12"
check(columns == expected_columns, "document symbol columns: expected " .. expected_columns .. ", got " .. columns)

vim.notify = original_notify
finish()
