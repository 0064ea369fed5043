-- Headless end-to-end test of the line indicators (gutter signs and whole-line backgrounds) against
-- a real highlight-ls, under every Neovim the runner finds (0.7.2 and 0.11 in CI).
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/line_indicators_test.lua'
--
-- Checks what is drawn: the sign column's characters and the line's attributes on the screen
-- grid (every version), the extmarks' sign_text, sign_hl_group and line_hl_group (0.9+, where
-- nvim_buf_get_extmarks reports them), and the colours of the groups. Exits 0 when every check
-- passes, 1 otherwise.

local api = vim.api
local T = dofile("editors/neovim/test/support.lua")
local say, check, write_file = T.say, T.check, T.write_file
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 15000

local binary = T.server_binary()
if not binary then
  T.finish("neovim line indicators", false)
  return
end

vim.o.termguicolors = true
T.dark_backdrop()
vim.o.signcolumn = "yes:1"
vim.o.number = false

local workspace = T.workspace([[
{
  "defaults": false,
  "styles": {
    "bug": { "color": "#fff", "backgroundColor": "#d32f2f", "gutter": { "text": "B" }, "overviewRuler": { "lane": "right" } },
    "focus": { "backgroundColor": "#f9a82580", "wholeLine": true },
  },
  "rules": [
    { "name": "bug", "words": ["BUG"] },
    { "name": "focus", "words": ["FOCUS"] },
    { "name": "owned", "regex": "TODO\\((?P<owner>[a-z]+)\\)", "style": { "color": "#1976d2", "gutter": true },
      "groups": { "owner": { "bold": true, "gutter": "@" } } },
    { "name": "wide", "words": ["WIDE"], "style": { "color": "#2e7d32", "gutter": "漢" } },
    { "name": "ruler", "words": ["RULER"], "style": { "color": "#000", "overviewRuler": true } },
  ],
}
]])
local path = workspace .. "/sample.txt"
write_file(path, table.concat({
  "BUG and BUG",       -- 1: bug's sign B, no whole line
  "TODO(ann) FOCUS",   -- 2: owned's sign (the default dot), focus's whole line
  "plain",             -- 3: nothing
  "WIDE RULER",        -- 4: a two-cell sign; a ruler mark draws nothing in Neovim
  "FOCUS",             -- 5: a whole line, no sign
  "RULER",             -- 6: nothing
}, "\n") .. "\n")

local plugin = require("highlight-ls")
plugin.setup({ cmd = { binary }, decorations = true })
vim.cmd("edit " .. vim.fn.fnameescape(path))
local bufnr = api.nvim_get_current_buf()

-- The line-indicator extmarks (those without an end) as { line, sign text, sign group, line group };
-- the sign fields are nil on Neovim before 0.9, which does not report them.
local function line_indicators()
  local marks = {}
  for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, plugin.namespace, 0, -1, { details = true })) do
    local details = mark[4] or {}
    if details.end_col == nil then
      marks[#marks + 1] = { line = mark[2], sign_text = details.sign_text, sign_hl_group = details.sign_hl_group, line_hl_group = details.line_hl_group }
    end
  end
  table.sort(marks, function(a, b)
    return a.line < b.line
  end)
  return marks
end

local arrived = vim.wait(timeout_ms, function()
  return #line_indicators() == 4
end, 20)
check(arrived, "four lines get marks (got " .. #line_indicators() .. ")")

local reports = api.nvim_buf_get_extmarks(bufnr, plugin.namespace, 0, -1, { details = true })
local reports_signs = false
for _, mark in ipairs(reports) do
  if mark[4] and mark[4].sign_text then
    reports_signs = true
  end
end
local marks = line_indicators()
check(vim.deep_equal(vim.tbl_map(function(mark)
  return mark.line
end, marks), { 0, 1, 3, 4 }), "marked lines are 0, 1, 3 and 4")
if vim.fn.has("nvim-0.9") == 1 then
  check(reports_signs, "0.9+ reports the signs of extmarks")
  -- Neovim pads a one-cell sign to the column's two cells.
  local expected = {
    { line = 0, sign_text = "B ", sign_hl_group = "HighlightLsSignBug" },
    { line = 1, sign_text = plugin.default_sign .. " ", sign_hl_group = "HighlightLsSignOwned", line_hl_group = "HighlightLsLineFocus" },
    { line = 3, sign_text = "漢", sign_hl_group = "HighlightLsSignWide" },
    { line = 4, line_hl_group = "HighlightLsLineFocus" },
  }
  check(vim.deep_equal(marks, expected), "the extmarks' signs and line groups:\n  expected " .. vim.inspect(expected) .. "\n  got      " .. vim.inspect(marks))
end

-- The groups' colours: the sign in its colour (the style's background, else text colour), the
-- whole line in the style's background blended over Normal's (#f9a82580 over black).
local function attributes(group)
  if api.nvim_get_hl then
    return api.nvim_get_hl(0, { name = group, link = false })
  end
  local ok, value = pcall(api.nvim_get_hl_by_name, group, true)
  if not ok then
    return {}
  end
  return { fg = value.foreground, bg = value.background, bold = value.bold }
end
check(attributes("HighlightLsSignBug").fg == 0xd32f2f, "the sign of bug is red")
check(attributes("HighlightLsSignOwned").fg == 0x1976d2, "the sign of owned is blue (its text colour)")
check(attributes("HighlightLsSignWide").fg == 0x2e7d32, "the sign of wide is green")
check(attributes("HighlightLsLineFocus").bg == 0x7d5413, "the whole line of focus is amber at half opacity over black: "
  .. string.format("%06x", attributes("HighlightLsLineFocus").bg or 0))

-- What is on the screen: the sign column (two cells) and the text after it.
vim.cmd("redraw!")
local function screen_cells(row, first, last)
  local cells = {}
  for column = first, last do
    cells[#cells + 1] = vim.fn.screenstring(row, column)
  end
  return table.concat(cells)
end
check(screen_cells(1, 1, 2) == "B ", "row 1 shows the sign B: '" .. screen_cells(1, 1, 2) .. "'")
check(screen_cells(2, 1, 2) == plugin.default_sign .. " ", "row 2 shows the default sign: '" .. screen_cells(2, 1, 2) .. "'")
check(screen_cells(3, 1, 2) == "  ", "row 3 shows no sign")
check(vim.fn.screenstring(4, 1) == "漢", "row 4 shows the two-cell sign")
check(screen_cells(5, 1, 2) == "  ", "row 5 shows no sign")
-- A whole line is painted past its text; a plain line is not.
local width = api.nvim_win_get_width(0)
local plain_attr = vim.fn.screenattr(3, width)
check(vim.fn.screenattr(2, width) ~= plain_attr, "row 2 is painted to the window's edge")
check(vim.fn.screenattr(5, width) ~= plain_attr, "row 5 is painted to the window's edge")
check(vim.fn.screenattr(5, width) == vim.fn.screenattr(2, width), "rows 2 and 5 share the whole line's colour")
check(vim.fn.screenattr(1, width) == plain_attr, "row 1 (a sign only) is not painted past its text")

-- Payloads drawn directly: a sign Neovim cannot show falls back to the default sign, an entry
-- with unknown styles or past the buffer draws nothing, and a payload without `lines` clears.
local version = vim.lsp.util.buf_versions[bufnr]
plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
  positionEncoding = "utf-8",
  styles = { { rule = "x", gutter = { text = "TOO WIDE", color = "#ff0000ff" } }, { rule = "y", color = "#ff0000ff" } },
  ranges = { 0, 0, 3, 0 },
  lines = { 0, 0, -1, 1, 1, 1, 2, 7, 7, 99, 0, -1 },
})
marks = line_indicators()
check(#marks == 1 and marks[1].line == 0, "only the valid entry draws: " .. vim.inspect(marks))
vim.cmd("redraw!")
check(screen_cells(1, 1, 2) == plugin.default_sign .. " ", "a sign too wide becomes the default sign: '" .. screen_cells(1, 1, 2) .. "'")
plugin.apply_decorations({
  textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version },
  positionEncoding = "utf-8",
  styles = {},
  ranges = {},
})
check(#line_indicators() == 0, "a payload without lines clears the line indicators")

-- No error or deprecation reached :messages.
local messages = vim.fn.execute("messages")
check(not messages:find("deprecated", 1, true) and not messages:find("E%d+:"), ":messages is clean:\n" .. messages)

T.finish("neovim line indicators", true)
